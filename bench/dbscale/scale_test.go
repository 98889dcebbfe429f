package dbscale

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jmoiron/sqlx"
	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/paging"
	"github.com/asapjs/fiber-template/tests/integration/pgtest"
)

func TestMain(m *testing.M) {
	if os.Getenv(serveEnv) != "" { // a child serving an implementation
		os.Exit(serveChild())
	}
	pgtest.Main(m)
}

// settings of a run, from the environment.
type settings struct {
	sizes     []int
	rounds    int
	cell      time.Duration
	workers   int
	transport string
}

func readSettings(b *testing.B) settings {
	s := settings{sizes: []int{10_000, 100_000, 1_000_000}, rounds: 3, cell: 1500 * time.Millisecond, workers: 8, transport: transportHandler}
	if v := os.Getenv("BENCH_TRANSPORT"); v != "" {
		if _, ok := implNames[v]; !ok {
			b.Fatalf("BENCH_TRANSPORT: %q is none of %s, %s and %s", v, transportHandler, transportHTTP, transportProcess)
		}
		s.transport = v
	}
	if v := os.Getenv("BENCH_SIZES"); v != "" {
		s.sizes = nil
		for _, f := range strings.Split(v, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 2*limit {
				b.Fatalf("BENCH_SIZES: %q is not a size of at least %d", f, 2*limit)
			}
			s.sizes = append(s.sizes, n)
		}
	}
	var err error
	if v := os.Getenv("BENCH_ROUNDS"); v != "" {
		if s.rounds, err = strconv.Atoi(v); err != nil || s.rounds < 1 {
			b.Fatalf("BENCH_ROUNDS: %q", v)
		}
	}
	if v := os.Getenv("BENCH_CELL"); v != "" {
		if s.cell, err = time.ParseDuration(v); err != nil || s.cell <= 0 {
			b.Fatalf("BENCH_CELL: %q", v)
		}
	}
	if v := os.Getenv("BENCH_WORKERS"); v != "" {
		if s.workers, err = strconv.Atoi(v); err != nil || s.workers < 1 {
			b.Fatalf("BENCH_WORKERS: %q", v)
		}
	}
	return s
}

// implementations, in the order of the table's columns.
const (
	implToday = iota
	implService
	implRaw
	implRawFiber
	implHuma
	implSQLx
	implCount
)

// implNames name the implementations on each transport.
var implNames = map[string][implCount]string{
	transportHandler: {"today (count + OFFSET)", "service", "raw pgx, same strategy", "raw pgx on raw Fiber", "huma + Bun (count + OFFSET)", "Fiber + sqlx (count + OFFSET)"},
	transportHTTP:    {"today (count + OFFSET, net/http)", "service", "raw pgx + net/http, same strategy", "raw pgx + raw Fiber", "huma + Bun (count + OFFSET)", "Fiber + sqlx (count + OFFSET)"},
	transportProcess: {"today", "service", "raw pgx + net/http", "raw pgx + raw Fiber", "huma + Bun", "Fiber + sqlx"},
}

// stack holds what the implementations are built on: the service's pool
// and the service on it, raw pgx's pool and cursors, and sqlx's pool. A
// child process opens only what its implementation needs.
type stack struct {
	db      *bun.DB
	svc     *target
	pool    *pgxpool.Pool
	cursors *paging.Cursors
	sqlx    *sqlx.DB
}

// served is the implementation impl as the http and process transports
// serve it, a *fiber.App or an http.Handler, and the Authorization its
// requests need ("" for none). Each raw pgx list remembers its own overruns
// and estimates.
func (s stack) served(impl int) (any, string) {
	switch impl {
	case implToday:
		return rawHandler(&rawList{pool: s.pool, cursors: s.cursors, today: true}), ""
	case implService:
		return s.svc.app, s.svc.authorization
	case implRaw:
		return rawHandler(newRawList(s.pool, s.cursors)), ""
	case implRawFiber:
		return rawFiber(newRawList(s.pool, s.cursors)), ""
	case implHuma:
		return humaApp(s.db), ""
	}
	return sqlxApp(s.sqlx), ""
}

// call is one request of an implementation, from a worker: the answer's
// body.
type call func(ctx context.Context, worker int, sc scenario) ([]byte, error)

// estimatedTotal marks an answer whose total is an estimate or a lower
// bound: a count that ran out of its budget is estimated for a minute,
// which costs less than counting, so such a cell measured another
// strategy than its neighbours.
var estimatedTotal = []byte(`"total_exact":false`)

// size is one seeded database and the implementations on it.
type size struct {
	rows      int
	scenarios []scenario
	impls     [implCount]call
	// cells[scenario][impl] holds one cell per round.
	cells [][implCount][]cell
	// service and raw are the service and raw pgx on the handler path,
	// for the reads beside the list (BenchmarkRowByID).
	service *target
	raw     *rawList
	// children serve the implementations on the process transport.
	children [implCount]*child
	// estimated counts the answers of the cell being run whose total was
	// estimated.
	estimated atomic.Int64
}

// seeded is a new database of the harness with rows users, its DSN and
// the service's pool on it, closed when tb ends.
func seeded(tb testing.TB, ctx context.Context, rows int) (string, *bun.DB) {
	tb.Helper()
	dsn := pgtest.NewDatabase(tb)
	db, err := database.Open(ctx, dsn)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = db.Close() })
	if err := seedUsers(ctx, db, rows); err != nil {
		tb.Fatal(err)
	}
	return dsn, db
}

// rawPool is raw pgx's pool on dsn, with at most conns connections, closed
// when tb ends, and the platform's cursors.
func rawPool(tb testing.TB, ctx context.Context, dsn string, conns int) (*pgxpool.Pool, *paging.Cursors) {
	tb.Helper()
	pool, cursors, err := openRaw(ctx, dsn, conns)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(pool.Close)
	return pool, cursors
}

func setUp(b *testing.B, ctx context.Context, rows int, st settings) *size {
	start := time.Now()
	dsn, db := seeded(b, ctx, rows)
	fmt.Printf("seeded %d users in %s\n", rows, time.Since(start).Round(100*time.Millisecond))
	pool, cursors := rawPool(b, ctx, dsn, 25)
	sqlxDB, err := openSQLx(dsn)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = sqlxDB.Close() })
	svc, err := newService(ctx, db, st.workers)
	if err != nil {
		b.Fatal(err)
	}
	sz := &size{rows: rows, scenarios: scenarios(rows)}
	for i, sc := range sz.scenarios {
		if sc.byCursor {
			if sz.scenarios[i].cursor, err = svc.cursorBefore(ctx, sc); err != nil {
				b.Fatal(err)
			}
		}
		if sc.walk != nil {
			sc.walk.cursors = cursors
			if sc.walk.at, err = cursors.Decode(sz.scenarios[i].cursor, paging.Layout{Keys: []paging.Kind{paging.KindInt}}); err != nil {
				b.Fatal(err)
			}
		}
	}
	// raw pgx bare and on Fiber each remember their own overruns and
	// estimates, as the service does.
	raw, onFiber := newRawList(pool, cursors), newRawList(pool, cursors)
	sz.service, sz.raw = svc, raw
	today := &rawList{pool: pool, cursors: cursors, today: true}
	byPath := func(get func(ctx context.Context, worker int, path string) ([]byte, error)) call {
		return func(ctx context.Context, w int, sc scenario) ([]byte, error) { return get(ctx, w, sc.path()) }
	}
	if st.transport == transportHandler {
		direct := func(r *rawList) call {
			return func(ctx context.Context, _ int, sc scenario) ([]byte, error) { return r.list(ctx, sc) }
		}
		sz.impls = [implCount]call{direct(today), byPath(svc.get), direct(raw), byPath(newTarget(rawFiber(onFiber), "", st.workers).get),
			byPath(newTarget(humaApp(db), "", st.workers).get), byPath(newTarget(sqlxApp(sqlxDB), "", st.workers).get)}
	} else if st.transport == transportProcess {
		for impl := range implCount {
			c, err := startChild(impl, dsn, st.workers)
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(c.stop)
			sz.children[impl], sz.impls[impl] = c, byPath(c.remote.get)
		}
	} else {
		on := stack{db: db, svc: svc, pool: pool, cursors: cursors, sqlx: sqlxDB}
		for impl := range implCount {
			app, authorization := on.served(impl)
			r, stop, err := listen(app, authorization, st.workers)
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(stop)
			sz.impls[impl] = byPath(r.get)
		}
	}
	sz.cells = make([][implCount][]cell, len(sz.scenarios))
	return sz
}

// call sends one request of impl for sc from worker w, and counts it in
// sz.estimated when its total was estimated.
func (sz *size) call(ctx context.Context, impl, w int, sc scenario) error {
	sc, err := sc.step()
	if err != nil {
		return err
	}
	if impl == implToday || impl == implHuma || impl == implSQLx { // no cursors: the same page by offset
		sc.byCursor = false
	}
	body, err := sz.impls[impl](ctx, w, sc)
	if err == nil && bytes.Contains(body, estimatedTotal) {
		sz.estimated.Add(1)
	}
	return err
}

// run loads one implementation on one scenario.
func (sz *size) run(ctx context.Context, impl int, sc scenario, st settings, d time.Duration) (cell, error) {
	fn := func(ctx context.Context, w int) error { return sz.call(ctx, impl, w, sc) }
	sz.estimated.Store(0)
	var c cell
	var err error
	if ch := sz.children[impl]; ch != nil {
		c, err = ch.measure(ctx, st.workers, d, fn)
	} else {
		c, err = load(ctx, st.workers, d, fn)
	}
	c.estimated = int(sz.estimated.Load())
	return c, err
}

// BenchmarkScale seeds every size, warms every cell up once, then runs the
// rounds: in each, every size, scenario and implementation in turn, the
// implementations in a rotated order. It prints the table of medians and
// ratios and reports the goals' ratios as metrics.
func BenchmarkScale(b *testing.B) {
	st := readSettings(b)
	ctx := context.Background()
	sizes := make([]*size, len(st.sizes))
	for i, rows := range st.sizes {
		sizes[i] = setUp(b, ctx, rows, st)
	}
	for _, sz := range sizes {
		for _, sc := range sz.scenarios {
			for impl := range implCount {
				if _, err := sz.run(ctx, impl, sc, st, st.cell/5); err != nil {
					b.Fatalf("%d rows, %s, %s: %v", sz.rows, sc.name, implNames[st.transport][impl], err)
				}
			}
		}
	}
	b.ResetTimer()
	for round := range st.rounds {
		for _, sz := range sizes {
			for i, sc := range sz.scenarios {
				for k := range implCount {
					impl := (k + round) % implCount
					c, err := sz.run(ctx, impl, sc, st, st.cell)
					if err != nil {
						b.Fatalf("%d rows, %s, %s: %v", sz.rows, sc.name, implNames[st.transport][impl], err)
					}
					sz.cells[i][impl] = append(sz.cells[i][impl], c)
				}
			}
		}
		fmt.Printf("round %d of %d done\n", round+1, st.rounds)
	}
	b.StopTimer()
	report(b, sizes, st)
}

// BenchmarkRequest serves every scenario of a 10k-user table one request
// at a time, on the handler path, by every implementation: what each costs
// per request, for profiles and benchstat -col /impl. Beside the time, it
// reports the CPU time the process spent a request (cpu-ns/op, user and
// system, on unix): the count beside the page runs on a goroutine of its
// own, whose work the time of one request at a time mostly hides.
func BenchmarkRequest(b *testing.B) {
	ctx := context.Background()
	sz := setUp(b, ctx, 10_000, settings{workers: 1, transport: transportHandler})
	name := strings.NewReplacer(" ", "-", ",", "", "(", "", ")", "", "+", "").Replace
	for _, sc := range sz.scenarios {
		b.Run("scenario="+name(sc.name), func(b *testing.B) {
			for impl := range implCount {
				b.Run("impl="+name(implNames[transportHandler][impl]), func(b *testing.B) {
					before, cpuErr := cpuTime()
					for b.Loop() {
						if err := sz.call(ctx, impl, 0, sc); err != nil {
							b.Fatal(err)
						}
					}
					if after, err := cpuTime(); cpuErr == nil && err == nil {
						b.ReportMetric(float64(after-before)/float64(b.N), "cpu-ns/op")
					}
				})
			}
		})
	}
}
