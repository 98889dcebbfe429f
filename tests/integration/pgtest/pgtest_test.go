package pgtest_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/asapjs/fiber-template/internal/testkit"
	"github.com/asapjs/fiber-template/tests/integration/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func connect(t *testing.T, dsn string) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatalf("connect to %s: %v", dsn, err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

func countTables(t *testing.T, conn *pgx.Conn) int {
	t.Helper()
	var n int
	err := conn.QueryRow(context.Background(),
		"SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'").Scan(&n)
	if err != nil {
		t.Fatalf("count tables: %v", err)
	}
	return n
}

func TestNewDatabase(t *testing.T) {
	t.Run("each call gives an empty database of its own", func(t *testing.T) {
		t.Parallel()
		first, second := pgtest.NewDatabase(t), pgtest.NewDatabase(t)
		if first == second {
			t.Fatalf("both calls returned %s", first)
		}
		a, b := connect(t, first), connect(t, second)
		if n := countTables(t, a); n != 0 {
			t.Fatalf("fresh database has %d tables", n)
		}
		if _, err := a.Exec(context.Background(), "CREATE TABLE things (id int)"); err != nil {
			t.Fatalf("create table: %v", err)
		}
		if n := countTables(t, b); n != 0 {
			t.Fatalf("a table created in one database shows in the other: %d tables", n)
		}
	})

	t.Run("the database is dropped when the test ends, open connections or not", func(t *testing.T) {
		t.Parallel()
		var dsn string
		t.Run("a test leaving a connection open", func(t *testing.T) {
			dsn = pgtest.NewDatabase(t)
			conn, err := pgx.Connect(context.Background(), dsn)
			if err != nil {
				t.Fatalf("connect: %v", err)
			}
			_ = conn // deliberately left open; the drop terminates it
		})
		if dsn == "" {
			testkit.Missing(t, "a PostgreSQL server, which the test owning the database did not get")
		}
		_, err := pgx.Connect(context.Background(), dsn)
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) || pgErr.Code != "3D000" {
			t.Fatalf("connect after the test ended: got %v, want invalid_catalog_name (3D000)", err)
		}
	})
}

func TestStopAndStart(t *testing.T) {
	// Not parallel: the controlled server may be the shared one.
	dsn := pgtest.NewControlledDatabase(t)

	t.Run("a stopped server refuses connections and comes back at the same address", func(t *testing.T) {
		pgtest.Stop(t)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if conn, err := pgx.Connect(ctx, dsn); err == nil {
			conn.Close(ctx)
			t.Fatal("connected to a stopped server")
		}
		pgtest.Start(t)
		connect(t, dsn)
	})

	t.Run("a test that ends with the server stopped leaves it running", func(t *testing.T) {
		t.Run("stop without start", func(t *testing.T) { pgtest.Stop(t) })
		connect(t, dsn)
	})
}

func TestKillAndStart(t *testing.T) {
	// Not parallel: the controlled server may be the shared one.
	dsn := pgtest.NewControlledDatabase(t)

	t.Run("a killed server refuses connections and comes back through crash recovery", func(t *testing.T) {
		pgtest.Kill(t)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if conn, err := pgx.Connect(ctx, dsn); err == nil {
			conn.Close(ctx)
			t.Fatal("connected to a killed server")
		}
		pgtest.Start(t)
		connect(t, dsn)
	})

	t.Run("a test that ends with the server killed leaves it running", func(t *testing.T) {
		t.Run("kill without start", func(t *testing.T) { pgtest.Kill(t) })
		connect(t, dsn)
	})
}

func TestFreezeAndThaw(t *testing.T) {
	// Not parallel: the controlled server may be the shared one.
	dsn := pgtest.NewControlledDatabase(t)
	conn := connect(t, dsn)

	t.Run("a frozen server answers nothing, and a thawed one answers again", func(t *testing.T) {
		pgtest.Freeze(t)
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		if err := conn.Ping(ctx); err == nil {
			t.Fatal("a frozen server answered")
		}
		pgtest.Thaw(t)
		connect(t, dsn)
	})

	t.Run("a test that ends with the server frozen leaves it answering", func(t *testing.T) {
		t.Run("freeze without thaw", func(t *testing.T) { pgtest.Freeze(t) })
		connect(t, dsn)
	})
}

// TestAReplicaIsMadeWhileThePrimaryRecyclesWAL makes replicas while another
// connection switches WAL segments and checkpoints as fast as it can, as a
// busy suite does: each replica must start and then see a row written after
// it was made.
func TestAReplicaIsMadeWhileThePrimaryRecyclesWAL(t *testing.T) {
	// Not parallel: the controlled server may be the shared one.
	dsn := pgtest.NewControlledDatabase(t)
	writer, churner := connect(t, dsn), connect(t, dsn)
	ctx, cancel := context.WithCancel(context.Background())
	churned := make(chan int)
	go func() {
		rounds := 0
		for ; ctx.Err() == nil; rounds++ {
			_, _ = churner.Exec(ctx, "SELECT pg_switch_wal(); CHECKPOINT")
		}
		churned <- rounds
	}()
	stopChurn := sync.OnceValue(func() int { cancel(); return <-churned })
	defer stopChurn()
	if _, err := writer.Exec(context.Background(), "CREATE TABLE marks (n int)"); err != nil {
		t.Fatalf("create table: %v", err)
	}
	for i := range 3 {
		replica := pgtest.NewReplica(t)
		if _, err := writer.Exec(context.Background(), "INSERT INTO marks VALUES ($1)", i); err != nil {
			t.Fatalf("insert: %v", err)
		}
		replica.WaitCaughtUp(t)
		var n int
		if err := connect(t, replica.URL(t, dsn)).QueryRow(context.Background(), "SELECT count(*) FROM marks WHERE n = $1", i).Scan(&n); err != nil || n != 1 {
			t.Fatalf("replica %d: the row written after it was made: count %d, %v", i, n, err)
		}
	}
	if rounds := stopChurn(); rounds < 3 {
		t.Fatalf("only %d checkpoints ran beside the replicas; the test did not churn", rounds)
	}
}
