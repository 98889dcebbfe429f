// Package pgtest gives tests a real PostgreSQL server and a fresh, empty
// database per test.
//
// The server is started once per test binary, on first use, from the first
// source that works:
//
//  1. TEST_DATABASE_URL, a postgres:// URL of a server where the user may
//     CREATE DATABASE;
//  2. a throwaway container through testcontainers-go, when a Docker
//     provider answers;
//  3. the local PostgreSQL server binaries (PG_BINDIR, pg_config --bindir,
//     /usr/lib/postgresql/*/bin or initdb on PATH): a cluster is initialised
//     in a temporary directory and served on a free loopback port.
//
// When none is available, tests asking for a database are skipped with a
// message saying how to get one, unless the CI environment variable is set,
// in which case they fail: a CI run must never pass by skipping. Every skip
// goes through testkit.Missing, which decides between the two.
//
// Tests that take their database down (Stop, Start, Freeze, Thaw, Kill) or
// replicate it (NewReplica) get it from NewControlledDatabase, on the
// controlled server: the shared one when it runs from local binaries, else
// a second server from the local binaries, started on first use, so that
// those tests run, rather than skip, when TEST_DATABASE_URL or a container
// provides the shared server. Main tears both down.
//
// A package opts in from its TestMain:
//
//	func TestMain(m *testing.M) { pgtest.Main(m) }
//
//	func TestSomething(t *testing.T) {
//		dsn := pgtest.NewDatabase(t) // postgres://…, dropped after the test
//		…
//	}
package pgtest
