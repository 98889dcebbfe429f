package database

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
)

// fakeDB is a database/sql database whose every statement answers one row
// holding value, or fails with err. It counts the statements it was given.
type fakeDB struct {
	value      string
	err        error
	statements atomic.Int64
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
	r := &Replicas{primary: primary, logger: slog.New(slog.DiscardHandler), stop: make(chan struct{})}
	n := &replica{name: "replica", db: replicaDB}
	n.set(up)
	r.nodes = append(r.nodes, n)
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
