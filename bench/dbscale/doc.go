// Package dbscale measures how the paging of the users list scales with the
// table: it seeds PostgreSQL with 10k, 100k and 1M users and loads, in one
// run with interleaved rounds, the list endpoint (page 0, a role filter, a
// q search, a deep page by offset and by cursor, a walk by cursor) next
// to raw pgx issuing the same strategy, bare and on raw Fiber, and to
// today's strategy, count(*) plus OFFSET on the schema before the search
// indexes, as the baseline. Ratios within the run, not absolute rates, are what
// bench/README.md reports.
//
//	go -C bench test -run '^$' -bench Scale -benchtime 1x -timeout 60m ./dbscale/
//
// BENCH_SIZES, BENCH_ROUNDS, BENCH_CELL and BENCH_WORKERS tune the run
// (defaults 10000,100000,1000000; 3; 1.5s; 8). BENCH_TRANSPORT=http serves
// every implementation on a loopback port (raw pgx and today's strategy on
// net/http, the service and raw pgx on raw Fiber on their Fiber listeners)
// and loads it over keep-alive connections; the default, handler, calls
// them in process. BENCH_TRANSPORT=process serves each implementation as
// http does but from a child process of its own (the test binary again),
// so that none shares its CPU, heap or collector with the load or another
// implementation, and reports the CPU time each child spends per request;
// BENCH_PROFILE=dir has each child write the CPU profile of its life to
// dir/<implementation>.pprof.
// The database comes from the integration tests' harness:
// TEST_DATABASE_URL, Docker or the local PostgreSQL binaries.
package dbscale
