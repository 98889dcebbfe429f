package database

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// onReplica is what a read replica does with a query that failed on it.
type onReplica int

const (
	// notAsserted: the error is not one a replica's query ends with, or
	// what a replica should do with it is not settled; no test pins it.
	notAsserted onReplica = iota
	// failsOver: the replica is marked down and the primary runs the
	// query again.
	failsOver
	// passesOn: the caller gets the error and the replica stays up.
	passesOn
)

// verb says what the replica does, for test names.
func (o onReplica) verb() string {
	if o == failsOver {
		return "fails over to the primary"
	}
	return "is passed on"
}

// errorKind is one way a query can fail, made the way a client meets it
// where that is cheap (a real dial, a real pgconn connection to a fake
// server that answers as PostgreSQL does), with what Unavailable and a
// read replica must make of it.
type errorKind struct {
	name string
	err  error
	// is checks that err is of the kind the name says.
	is      func(error) bool
	outage  bool
	replica onReplica
}

// errorKinds makes every kind of error the outage tests classify, each
// checked to be what its name says.
func errorKinds(t *testing.T) []errorKind {
	t.Helper()
	pgErr := func(code string) error { return &pgconn.PgError{Severity: "FATAL", Code: code, Message: "constructed"} }
	execOn := func(cfg fakePG, wait time.Duration) error {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		return pgExec(ctx, t, cfg.start(t))
	}
	connectTo := func(cfg fakePG) error { return connectErr(pgConnect(t, cfg.start(t).dsn, 5*time.Second)) }
	const long = 10 * time.Second
	kinds := []errorKind{
		// The connection is refused, reset or gone.
		{"a refused dial (ECONNREFUSED)", dialRefused(t), isErr(syscall.ECONNREFUSED), true, failsOver},
		{"pgconn.Connect to a closed port (*pgconn.ConnectError)", connectErr(pgConnect(t, pgURL(closedPort(t)), long)),
			all(isConnectErr, isErr(syscall.ECONNREFUSED)), true, failsOver},
		{"a connection reset by the server (ECONNRESET)", readAfterReset(t), isErr(syscall.ECONNRESET), true, failsOver},
		{"a write to a connection the server closed (EPIPE)", writeAfterClose(t), isErr(syscall.EPIPE), true, failsOver},
		{"a read of a connection the server closed (io.EOF)", readAfterClose(t, 0), isExactly(io.EOF), true, failsOver},
		{"a read of a message cut short (io.ErrUnexpectedEOF)", readAfterClose(t, 1), isExactly(io.ErrUnexpectedEOF), true, failsOver},
		{"a read past its deadline (net.Error timeout)", readPastDeadline(t), isNetTimeout, true, failsOver},
		{"a database/sql connection used after its release (sql.ErrConnDone)", connDone(t), isErr(sql.ErrConnDone), true, failsOver},
		{"database/sql out of connections that work (driver.ErrBadConn)", badConn(t), isErr(driver.ErrBadConn), true, failsOver},
		{"a statement on a connection the server dropped (pgconn: conn closed)", execAfterDrop(t), pgconn.SafeToRetry, true, failsOver},
		// The server does not answer in time.
		{"pgconn.Connect to a server that never answers (pgconn.Timeout)", connectTimeout(t), all(isConnectErr, pgconn.Timeout), true, failsOver},
		{"a statement that never got an answer (pgconn.Timeout)", execOn(fakePG{answer: answerNothing}, 100*time.Millisecond), pgconn.Timeout, true, failsOver},
		// The server says it cannot serve.
		{"57P01 admin_shutdown, ending the connection", execOn(fakePG{answer: answerFatal, code: "57P01"}, long), hasCode("57P01"), true, failsOver},
		{"57P02 crash_shutdown", pgErr("57P02"), hasCode("57P02"), true, failsOver},
		{"57P03 cannot_connect_now, at connect", connectTo(fakePG{startup: "57P03"}), all(isConnectErr, hasCode("57P03")), true, failsOver},
		// A statement cut by statement_timeout would be as slow on the
		// primary: the replica passes it on.
		{"57014 query_canceled (statement_timeout)", execOn(fakePG{answer: answerError, code: "57014"}, long), hasCode("57014"), true, passesOn},
		// Whether a replica out of connection slots should fail over is
		// open: replicas.go keeps it in rotation and passes the error on.
		{"53300 too_many_connections, at connect", connectTo(fakePG{startup: "53300"}), all(isConnectErr, hasCode("53300")), true, notAsserted},
		{"08P01 protocol_violation, ending the connection", execOn(fakePG{answer: answerFatal, code: "08P01"}, long), hasCode("08P01"), true, failsOver},
		{"08000 connection_exception", pgErr("08000"), hasCode("08000"), true, failsOver},
		{"08001 sqlclient_unable_to_establish_sqlconnection", pgErr("08001"), hasCode("08001"), true, failsOver},
		{"08003 connection_does_not_exist", pgErr("08003"), hasCode("08003"), true, failsOver},
		{"08004 sqlserver_rejected_establishment_of_sqlconnection", pgErr("08004"), hasCode("08004"), true, failsOver},
		{"08006 connection_failure", pgErr("08006"), hasCode("08006"), true, failsOver},
		// The query or the caller is at fault, or the database is gone
		// for good: no outage.
		{"23505 unique_violation", execOn(fakePG{answer: answerError, code: "23505"}, long), hasCode("23505"), false, passesOn},
		{"42601 syntax_error", execOn(fakePG{answer: answerError, code: "42601"}, long), hasCode("42601"), false, passesOn},
		{"42P01 undefined_table", execOn(fakePG{answer: answerError, code: "42P01"}, long), hasCode("42P01"), false, passesOn},
		// What a replica whose credentials the server refuses should do is
		// open too: replicas.go passes the error on.
		{"28P01 invalid_password, at connect", connectTo(fakePG{startup: "28P01"}), all(isConnectErr, hasCode("28P01")), false, notAsserted},
		// A replica whose database was dropped is done with: its reads go
		// to the primary, but for the service this is no passing outage.
		{"57P04 database_dropped", pgErr("57P04"), hasCode("57P04"), false, failsOver},
		// A replica's query never ends with no rows (a Scan does), and a
		// cancelled caller is TestReplicaLeavesACancelledQueryAlone's.
		{"sql.ErrNoRows", noRows(t), isErr(sql.ErrNoRows), false, notAsserted},
		{"a statement its caller cancelled (context.Canceled)", cancelledExec(t), isExactly(context.Canceled), false, notAsserted},
		{"any other error", errors.New("invalid input"), func(err error) bool { return err != nil }, false, notAsserted},
	}
	for _, k := range kinds {
		if !k.is(k.err) {
			t.Errorf("%s: the error made is %T %v", k.name, k.err, k.err)
		}
	}
	return kinds
}

// isErr checks that an error is target or wraps it.
func isErr(target error) func(error) bool {
	return func(err error) bool { return errors.Is(err, target) }
}

// isExactly checks that an error is target itself, as a read returns it.
func isExactly(target error) func(error) bool { return func(err error) bool { return err == target } }

// hasCode checks that an error carries a PostgreSQL error with code.
func hasCode(code string) func(error) bool {
	return func(err error) bool {
		var pgErr *pgconn.PgError
		return errors.As(err, &pgErr) && pgErr.Code == code
	}
}

// isConnectErr reports whether err is pgconn's error of a failed connect.
func isConnectErr(err error) bool {
	var connectErr *pgconn.ConnectError
	return errors.As(err, &connectErr)
}

// isNetTimeout reports whether err is a net.Error that timed out.
func isNetTimeout(err error) bool {
	var netErr net.Error
	return errors.As(err, &netErr) && netErr.Timeout()
}

// all checks that an error passes every one of checks.
func all(checks ...func(error) bool) func(error) bool {
	return func(err error) bool {
		for _, ok := range checks {
			if !ok(err) {
				return false
			}
		}
		return true
	}
}

// pgURL is the DSN of a PostgreSQL server at addr.
func pgURL(addr string) string { return "postgres://fake@" + addr + "/fake?sslmode=disable" }

// TestUnavailable classifies every kind of error as a caller sees it:
// bare, as the driver returns it, and wrapped once and twice with %w, as
// a repository and a service wrap it.
func TestUnavailable(t *testing.T) {
	t.Parallel()
	if Unavailable(nil) {
		t.Error("Unavailable(nil) = true, want false")
	}
	for _, k := range errorKinds(t) {
		name := "not an outage"
		if k.outage {
			name = "an outage"
		}
		t.Run(k.name+" is "+name, func(t *testing.T) {
			t.Parallel()
			for _, err := range []error{
				k.err,
				fmt.Errorf("find user: %w", k.err),
				fmt.Errorf("list users: %w", fmt.Errorf("paginate: %w", k.err)),
			} {
				if got := Unavailable(err); got != k.outage {
					t.Errorf("Unavailable(%q) = %v, want %v", err, got, k.outage)
				}
			}
		})
	}
}

// connectErr keeps the error of a connection attempt that must fail.
func connectErr(conn *pgconn.PgConn, err error) error {
	if conn != nil {
		return errors.New("the connection was made")
	}
	return err
}

// loopbackPair returns both ends of a new TCP connection on the loopback
// interface, closed when t ends.
func loopbackPair(t *testing.T) (client, server *net.TCPConn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	s, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close(); _ = s.Close() })
	return c.(*net.TCPConn), s.(*net.TCPConn)
}

// dialRefused dials a closed loopback port.
func dialRefused(t *testing.T) error {
	t.Helper()
	c, err := net.Dial("tcp", closedPort(t))
	if err == nil {
		_ = c.Close()
		return errors.New("the dial succeeded")
	}
	return err
}

// readAfterReset reads from a connection its peer reset.
func readAfterReset(t *testing.T) error {
	t.Helper()
	c, s := loopbackPair(t)
	if err := s.SetLinger(0); err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
	_, err := c.Read(make([]byte, 1))
	return err
}

// writeAfterClose writes to a Unix socket whose peer has closed.
func writeAfterClose(t *testing.T) error {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
	_, err = c.Write([]byte("SELECT 1"))
	return err
}

// readAfterClose reads a 5-byte message header from a connection whose
// peer wrote sent bytes of it and closed.
func readAfterClose(t *testing.T, sent int) error {
	t.Helper()
	c, s := loopbackPair(t)
	if _, err := s.Write(make([]byte, sent)); err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
	_, err := io.ReadFull(c, make([]byte, 5))
	return err
}

// readPastDeadline reads from a silent connection whose deadline has
// passed.
func readPastDeadline(t *testing.T) error {
	t.Helper()
	c, _ := loopbackPair(t)
	if err := c.SetReadDeadline(time.Now()); err != nil {
		t.Fatal(err)
	}
	_, err := c.Read(make([]byte, 1))
	return err
}

// openSQLite opens a SQLite database in t's temporary directory.
func openSQLite(t *testing.T) *sql.DB {
	t.Helper()
	db, err := Open(t.Context(), "sqlite:"+filepath.Join(t.TempDir(), "test.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db.DB
}

// connDone runs a statement on a database/sql connection already
// returned to its pool.
func connDone(t *testing.T) error {
	t.Helper()
	conn, err := openSQLite(t).Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	_ = conn.Close()
	_, err = conn.ExecContext(t.Context(), "SELECT 1")
	return err
}

// noRows scans the row of a query that selects none.
func noRows(t *testing.T) error {
	t.Helper()
	var n int
	return openSQLite(t).QueryRowContext(t.Context(), "SELECT 1 WHERE 1 = 0").Scan(&n)
}

// badConn pings, through database/sql and pgx, a server that drops every
// connection at its first statement: database/sql tries its connections
// and new ones, then gives up.
func badConn(t *testing.T) error {
	t.Helper()
	db, err := openPostgres(fakePG{answer: answerClose}.start(t).dsn, Pool{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	return db.PingContext(t.Context())
}

// execAfterDrop runs a statement with pgconn on a connection the server
// dropped at the one before.
func execAfterDrop(t *testing.T) error {
	t.Helper()
	srv := fakePG{answer: answerClose}.start(t)
	conn, err := pgConnect(t, srv.dsn, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = conn.Exec(t.Context(), "SELECT 1").ReadAll()
	_, err = conn.Exec(t.Context(), "SELECT 1").ReadAll()
	return err
}

// connectTimeout connects with pgconn to a server that never answers,
// within 100ms.
func connectTimeout(t *testing.T) error {
	t.Helper()
	return connectErr(pgConnect(t, pgURL(silentPort(t)), 100*time.Millisecond))
}

// cancelledExec runs a statement the server never answers and its caller
// cancels.
func cancelledExec(t *testing.T) error {
	t.Helper()
	// Connected first: a cancel that lands while a loaded machine is
	// still connecting is a context done before the statement, which
	// pgconn wraps, not the cancel of a statement waiting for its answer.
	conn, err := pgConnect(t, fakePG{answer: answerNothing}.start(t).dsn, 5*time.Second)
	if err != nil {
		t.Fatalf("connect to the fake server: %v", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	time.AfterFunc(50*time.Millisecond, cancel)
	_, err = conn.Exec(ctx, "SELECT 1").ReadAll()
	if err == nil {
		t.Fatal("the fake server answered the statement")
	}
	return err
}
