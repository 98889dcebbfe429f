package database

import (
	"bytes"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
)

// fakeDB is a database/sql database whose every statement answers one row
// holding value, or fails with err. It counts the statements it was given.
// While down is set, its pings fail, as a server that is gone.
type fakeDB struct {
	value      string
	err        error
	statements atomic.Int64
	down       atomic.Bool
}

// open returns the *sql.DB of d, closed when t ends.
func (d *fakeDB) open(t *testing.T) *sql.DB {
	t.Helper()
	db := sql.OpenDB(d)
	t.Cleanup(func() { _ = db.Close() })
	return db
}

func (d *fakeDB) Connect(context.Context) (driver.Conn, error) { return fakeConn{d}, nil }
func (d *fakeDB) Driver() driver.Driver                        { return fakeDriver{} }

type fakeDriver struct{}

func (fakeDriver) Open(string) (driver.Conn, error) {
	return nil, errors.New("fake driver: open it with sql.OpenDB")
}

type fakeConn struct{ d *fakeDB }

func (fakeConn) Prepare(string) (driver.Stmt, error) {
	return nil, errors.New("fake driver: no prepared statements")
}
func (fakeConn) Close() error              { return nil }
func (fakeConn) Begin() (driver.Tx, error) { return nil, errors.New("fake driver: no transactions") }

// Ping implements driver.Pinger: the health check of a replica.
func (c fakeConn) Ping(context.Context) error {
	if c.d.down.Load() {
		return errors.New("fake driver: the server is down")
	}
	return nil
}

func (c fakeConn) QueryContext(context.Context, string, []driver.NamedValue) (driver.Rows, error) {
	c.d.statements.Add(1)
	if c.d.err != nil {
		return nil, c.d.err
	}
	return &fakeRows{value: c.d.value}, nil
}

func (c fakeConn) ExecContext(context.Context, string, []driver.NamedValue) (driver.Result, error) {
	c.d.statements.Add(1)
	if c.d.err != nil {
		return nil, c.d.err
	}
	return driver.RowsAffected(1), nil
}

// fakeRows is one row of one column.
type fakeRows struct {
	value string
	done  bool
}

func (*fakeRows) Columns() []string { return []string{"value"} }
func (*fakeRows) Close() error      { return nil }

func (r *fakeRows) Next(dest []driver.Value) error {
	if r.done {
		return io.EOF
	}
	r.done = true
	dest[0] = r.value
	return nil
}

// replicated puts primary and one replica up in front of it behind the
// resolver, as OpenWithReplicas does once the replica answered its first
// check, and returns the bun.DB that routes reads to the replica and the
// Replicas, both closed when t ends. No health check runs.
func replicated(t *testing.T, primary, replicaDB *sql.DB) (*bun.DB, *Replicas) {
	t.Helper()
	db, r := resolver(t, slog.New(slog.DiscardHandler), primary, replicaDB)
	r.nodes[0].set(up)
	return db, r
}

// checked puts primary and the replicas behind the resolver and checks
// them once, as OpenWithReplicas does at start, logging to logger; it
// returns the bun.DB and the Replicas, closed when t ends. Later health
// checks run only when the test calls checkAll.
func checked(t *testing.T, logger *slog.Logger, primary *sql.DB, replicaDBs ...*sql.DB) (*bun.DB, *Replicas) {
	t.Helper()
	db, r := resolver(t, logger, primary, replicaDBs...)
	r.checkAll(context.Background())
	return db, r
}

// resolver puts primary and the replicas, named replica0, replica1...,
// behind a Replicas whose replicas were never checked, and returns the
// bun.DB that routes through it; both are closed when t ends.
func resolver(t *testing.T, logger *slog.Logger, primary *sql.DB, replicaDBs ...*sql.DB) (*bun.DB, *Replicas) {
	t.Helper()
	r := &Replicas{primary: primary, logger: logger, stop: make(chan struct{})}
	for i, d := range replicaDBs {
		r.nodes = append(r.nodes, &replica{name: fmt.Sprintf("replica%d", i), db: d})
	}
	db := bun.NewDB(primary, pgdialect.New(), bun.WithConnResolver(r)).WithQueryHook(sessionHook{})
	t.Cleanup(func() { _ = db.Close() })
	return db, r
}

// read is one way a read reaches the replica: bun's Scan runs
// QueryContext, Exec ExecContext and Count QueryRowContext.
type read struct {
	name string
	run  func(ctx context.Context, db *bun.DB) error
}

// reads returns every way a read reaches a replica.
func reads() []read {
	return []read{
		{"a select (QueryContext)", func(ctx context.Context, db *bun.DB) error {
			var v string
			return db.NewSelect().ColumnExpr("1").Scan(ctx, &v)
		}},
		{"a select run as Exec (ExecContext)", func(ctx context.Context, db *bun.DB) error {
			_, err := db.NewSelect().ColumnExpr("1").Exec(ctx)
			return err
		}},
		{"a count (QueryRowContext)", func(ctx context.Context, db *bun.DB) error {
			_, err := db.NewSelect().TableExpr("t").Count(ctx)
			return err
		}},
	}
}

// wantFailover checks what the read that got err did: the primary ran it
// again and the replica is down, or the caller got the replica's error and
// the replica is still up.
func wantFailover(t *testing.T, r *Replicas, want onReplica, err error, primaryStatements int64, isReplicaErr func(error) bool) {
	t.Helper()
	stats := r.Stats()[0]
	switch want {
	case failsOver:
		if err != nil || primaryStatements != 1 {
			t.Errorf("the read ended with %v after %d statements on the primary, want the primary's answer", err, primaryStatements)
		}
		if stats.Healthy || stats.Failovers != 1 {
			t.Errorf("replica stats %+v, want it down after one failover", stats)
		}
	case passesOn:
		if err == nil || primaryStatements != 0 {
			t.Errorf("the read ended with %v after %d statements on the primary, want the replica's error", err, primaryStatements)
		} else if !isReplicaErr(err) {
			t.Errorf("the read ended with %v, not the replica's error", err)
		}
		if !stats.Healthy || stats.Failovers != 0 {
			t.Errorf("replica stats %+v, want it up, without failovers", stats)
		}
	}
	if stats.Reads != 1 {
		t.Errorf("the replica was given %d reads, want 1", stats.Reads)
	}
}

// TestReplicaFailover fails a replica's query with every kind of error:
// one that says the replica cannot serve marks it down and runs the query
// again on the primary, whichever way bun reached the replica; one that
// says the query is wrong goes back to the caller and keeps the replica.
func TestReplicaFailover(t *testing.T) {
	t.Parallel()
	for _, k := range errorKinds(t) {
		if k.replica == notAsserted {
			continue
		}
		for _, rd := range reads() {
			t.Run(k.name+" from "+rd.name+" "+k.replica.verb(), func(t *testing.T) {
				t.Parallel()
				primary := &fakeDB{value: "1"}
				replica := &fakeDB{err: fmt.Errorf("replica: %w", k.err)}
				db, r := replicated(t, primary.open(t), replica.open(t))
				err := rd.run(context.Background(), db)
				if replica.statements.Load() == 0 {
					t.Fatalf("the read did not reach the replica: %v", err)
				}
				wantFailover(t, r, k.replica, err, primary.statements.Load(), isErr(replica.err))
			})
		}
	}
}

// TestReplicaLeavesACancelledQueryAlone cancels a read on a replica: the
// caller left, so the replica is not at fault and the primary is not
// asked.
func TestReplicaLeavesACancelledQueryAlone(t *testing.T) {
	t.Parallel()
	for _, rd := range reads() {
		t.Run(rd.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancel(context.Background())
			primary := &fakeDB{value: "1"}
			replica := &fakeDB{value: "2"}
			db, r := replicated(t, primary.open(t), replica.open(t))
			cancel()
			err := rd.run(ctx, db)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("the read ended with %v, want context.Canceled", err)
			}
			wantFailover(t, r, passesOn, err, primary.statements.Load(), isErr(context.Canceled))
		})
	}
}

// servedBy runs op and names the database that got its statement:
// "primary", or the value of the replica that answered.
func servedBy(t *testing.T, primary *fakeDB, replicas []*fakeDB, op func() error) string {
	t.Helper()
	before := primary.statements.Load()
	counts := make([]int64, len(replicas))
	for i, d := range replicas {
		counts[i] = d.statements.Load()
	}
	if err := op(); err != nil {
		t.Fatalf("the statement failed: %v", err)
	}
	if primary.statements.Load() > before {
		return "primary"
	}
	for i, d := range replicas {
		if d.statements.Load() > counts[i] {
			return d.value
		}
	}
	t.Fatal("no database got the statement")
	return ""
}

// readOne is a plain SELECT, routed as every read outside a transaction.
func readOne(ctx context.Context, db *bun.DB) func() error {
	return func() error {
		var v string
		return db.NewSelect().ColumnExpr("1").Scan(ctx, &v)
	}
}

// TestReplicaReadsGoToTheOneUp puts three replicas behind the primary, one
// of them up: every read goes to that one, from the first read on,
// whichever of the three it is, and none to the primary.
func TestReplicaReadsGoToTheOneUp(t *testing.T) {
	t.Parallel()
	const n = 3
	for healthy := range n {
		t.Run(fmt.Sprintf("replica%d up", healthy), func(t *testing.T) {
			t.Parallel()
			primary := &fakeDB{value: "primary"}
			replicas := make([]*fakeDB, n)
			dbs := make([]*sql.DB, n)
			for i := range n {
				replicas[i] = &fakeDB{value: fmt.Sprintf("replica%d", i)}
				replicas[i].down.Store(i != healthy)
				dbs[i] = replicas[i].open(t)
			}
			db, r := checked(t, slog.New(slog.DiscardHandler), primary.open(t), dbs...)
			for i := range 2 * n {
				if got := servedBy(t, primary, replicas, readOne(context.Background(), db)); got != replicas[healthy].value {
					t.Errorf("read %d went to %s, want %s", i+1, got, replicas[healthy].value)
				}
			}
			if got := r.PrimaryReads(); got != 0 {
				t.Errorf("PrimaryReads = %d, want 0: a replica was up", got)
			}
		})
	}
}

// TestReplicaStateChangesAreLoggedOnce takes a replica down and back, by
// its health checks and by a read it fails: each change is logged once,
// however many checks find the replica in the same state, and the reads
// follow its state.
func TestReplicaStateChangesAreLoggedOnce(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	primary, replica := &fakeDB{value: "primary"}, &fakeDB{value: "replica"}
	db, r := checked(t, slog.New(slog.NewTextHandler(&out, nil)), primary.open(t), replica.open(t))
	steps := []struct {
		name string
		// down fails the replica's pings, failReads its queries.
		down, failReads bool
		// checks is how many health checks run before the read.
		checks           int
		wantUp, wantDown int // lines logged so far
		wantRead         string
	}{
		{"at start the replica answers", false, false, 0, 1, 0, "replica"},
		{"it stops answering its health check", true, false, 1, 1, 1, "primary"},
		{"it stays down over more checks", true, false, 3, 1, 1, "primary"},
		{"it answers again", false, false, 1, 2, 1, "replica"},
		{"it stays up over more checks", false, false, 3, 2, 1, "replica"},
		{"it fails a read for want of a connection", true, true, 0, 2, 2, "primary"},
		{"it stays down over more checks after the failed read", true, true, 3, 2, 2, "primary"},
		{"it answers once more", false, false, 2, 3, 2, "replica"},
	}
	for _, s := range steps {
		replica.down.Store(s.down)
		replica.err = nil
		if s.failReads {
			replica.err = errors.New("fake driver: connection refused")
		}
		for range s.checks {
			r.checkAll(context.Background())
		}
		got := servedBy(t, primary, []*fakeDB{replica}, readOne(context.Background(), db))
		logged := out.String()
		upLines, downLines := strings.Count(logged, "read replica is up"), strings.Count(logged, "read replica is down")
		if upLines != s.wantUp || downLines != s.wantDown || got != s.wantRead {
			t.Errorf("%s: %d up and %d down lines logged, the read went to the %s; want %d, %d and the %s\n%s",
				s.name, upLines, downLines, got, s.wantUp, s.wantDown, s.wantRead, logged)
		}
	}
}

// TestReplicasClose closes replicas whose pools close cleanly, with their
// health checks running: Close reports no error, the first time and the
// next, whether it is called itself or by the bun.DB's Close.
func TestReplicasClose(t *testing.T) {
	t.Parallel()
	for _, first := range []string{"the bun.DB", "the Replicas"} {
		t.Run("closing "+first+" first", func(t *testing.T) {
			t.Parallel()
			primary, one, two := &fakeDB{value: "primary"}, &fakeDB{value: "one"}, &fakeDB{value: "two"}
			db, r := checked(t, slog.New(slog.DiscardHandler), primary.open(t), one.open(t), two.open(t))
			r.stopped.Add(1)
			go r.monitor(time.Millisecond)
			closers := []func() error{db.Close, r.Close}
			if first == "the Replicas" {
				closers = []func() error{r.Close, db.Close}
			}
			for i, c := range append(closers, r.Close) {
				if err := c(); err != nil {
					t.Errorf("close %d: %v, want nil", i+1, err)
				}
			}
		})
	}
}

// TestSessionReadsFromTheReplicaUntilItWrites follows one session: its
// reads go to the replica until it writes, and to the primary from then
// on, so that it reads its own write; reads outside it still go to the
// replica, and those of OnPrimary to the primary.
func TestSessionReadsFromTheReplicaUntilItWrites(t *testing.T) {
	t.Parallel()
	primary, replica := &fakeDB{value: "primary"}, &fakeDB{value: "replica"}
	db, _ := replicated(t, primary.open(t), replica.open(t))
	ctx := context.Background()
	session := WithSession(ctx)
	write := func() error {
		_, err := db.NewUpdate().TableExpr("t").Set("v = 1").Where("id = 1").Exec(session)
		return err
	}
	steps := []struct {
		name string
		op   func() error
		want string
	}{
		{"the session's first read", readOne(session, db), "replica"},
		{"its second read", readOne(session, db), "replica"},
		{"its write", write, "primary"},
		{"its read after the write", readOne(session, db), "primary"},
		{"its next read", readOne(session, db), "primary"},
		{"a read outside the session", readOne(ctx, db), "replica"},
		{"a read on the primary", readOne(OnPrimary(ctx), db), "primary"},
	}
	for _, s := range steps {
		if got := servedBy(t, primary, []*fakeDB{replica}, s.op); got != s.want {
			t.Errorf("%s went to the %s, want the %s", s.name, got, s.want)
		}
	}
}
