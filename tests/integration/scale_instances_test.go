package integration

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/internal/testkit"
	"github.com/asapjs/fiber-template/migrations"
	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/tests/integration/pgtest"
)

// TestInstancesStartTogether starts eight instances of the built binary at
// once on one fresh PostgreSQL, as a rollout or an autoscaler does: each
// migrates on start, so they contend for the migration lock.
func TestInstancesStartTogether(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs cmd/api eight times over; skipped with -short")
	}
	t.Parallel()
	dsn := pgtest.NewDatabase(t)
	bin := buildAPI(t)

	const instances = 8
	procs := make([]*testkit.Process, instances)
	ports := make([]int, instances)
	began := time.Now()
	for i := range instances {
		ports[i] = testkit.Port(t)
		procs[i] = startAPI(t, bin, map[string]string{
			"HOST":             "127.0.0.1",
			"PORT":             strconv.Itoa(ports[i]),
			"DATABASE_URL":     dsn,
			"JWT_SECRET":       "integration-test-secret-of-32-bytes-or-more",
			"APP_ENV":          "production", // JSON logs, read below
			"MIGRATE_ON_START": "true",
		})
	}
	var wg sync.WaitGroup
	for i, p := range procs {
		wg.Go(func() { p.WaitOK(t, healthCheck(ports[i])) })
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	t.Logf("%d instances answered 200 on /health-check %s after the first started", instances, time.Since(began).Round(time.Millisecond))

	t.Run("every instance is healthy and logged no error", func(t *testing.T) {
		for i, p := range procs {
			for _, line := range strings.Split(p.Output(), "\n") {
				if strings.Contains(line, `"level":"ERROR"`) || strings.Contains(line, `"error"`) {
					t.Errorf("instance %d logged an error: %s", i, line)
				}
			}
		}
	})

	t.Run("one instance applied the migrations and the others found them applied", func(t *testing.T) {
		applied := 0
		for _, p := range procs {
			if strings.Contains(p.Output(), `"msg":"applied migrations"`) {
				applied++
			}
		}
		if applied != 1 {
			t.Errorf("%d instances say they applied migrations, want exactly 1", applied)
		}
	})

	t.Run("bun_migrations holds each migration once", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		db, err := database.Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var rows []struct {
			Name  string
			Count int
		}
		if err := db.NewRaw("SELECT name, count(*) AS count FROM bun_migrations GROUP BY name ORDER BY name").Scan(ctx, &rows); err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, r := range rows {
			if r.Count != 1 {
				t.Errorf("migration %s is recorded %d times", r.Name, r.Count)
			}
			names = append(names, r.Name)
		}
		var want []string
		for _, m := range migrations.Migrations.Sorted() {
			want = append(want, m.Name)
		}
		if !slices.Equal(names, want) {
			t.Errorf("bun_migrations holds %v, want %v", names, want)
		}
	})
}

// TestMigrationLock checks the PostgreSQL migration lock against a session
// that holds it, as another instance migrating would.
func TestMigrationLock(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dsn := pgtest.NewDatabase(t)
	db, err := database.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// hold takes the migration lock in a session of its own, as a
	// migrating instance does, and returns the pid of its backend.
	hold := func(t *testing.T) int {
		t.Helper()
		conn, err := pgx.Connect(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close(context.Background()) })
		var got bool
		if err := conn.QueryRow(ctx, "SELECT pg_try_advisory_lock($1)", lockKey).Scan(&got); err != nil || !got {
			t.Fatalf("take the migration lock: %v (got %v)", err, got)
		}
		return int(conn.PgConn().PID())
	}
	// crash ends the holder's session as a crash of its process does,
	// and waits until its backend is gone.
	crash := func(t *testing.T, pid int) {
		t.Helper()
		var gone bool
		// pg_terminate_backend with a timeout waits for the backend to exit.
		if err := db.NewRaw("SELECT pg_terminate_backend(?, 10000)", pid).Scan(ctx, &gone); err != nil || !gone {
			t.Fatalf("terminate the holder: %v (gone %v)", err, gone)
		}
	}

	t.Run("a migration waits for the holder and gives up after the lock timeout", func(t *testing.T) {
		defer crash(t, hold(t))
		start := time.Now()
		err := migrations.Up(ctx, db, migrations.WithLockTimeout(time.Second))
		if err == nil || !strings.Contains(err.Error(), migrations.ErrLockTimeout.Error()) {
			t.Fatalf("Up while another session holds the lock: %v, want %v", err, migrations.ErrLockTimeout)
		}
		if waited := time.Since(start); waited < time.Second {
			t.Errorf("Up gave up after %s, before the 1s lock timeout", waited)
		}
	})

	t.Run("a holder that dies releases the lock and the waiting migration goes on", func(t *testing.T) {
		holder := hold(t)
		done := make(chan error, 1)
		go func() { done <- migrations.Up(ctx, db, migrations.WithLockTimeout(30*time.Second)) }()
		waiter := waitingForLock(t, ctx, db, done)
		select {
		case err := <-done:
			t.Fatalf("Up returned (%v) while session %d held the lock and session %d waited for it", err, holder, waiter)
		default:
		}
		// PostgreSQL drops a session's advisory locks with the session.
		crash(t, holder)
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("Up after the holder died: %v", err)
			}
		case <-ctx.Done():
			t.Fatalf("Up did not return once the holder died: %v", ctx.Err())
		}
		var applied int
		if err := db.NewRaw("SELECT count(*) FROM bun_migrations").Scan(ctx, &applied); err != nil || applied != len(migrations.Migrations.Sorted()) {
			t.Fatalf("bun_migrations holds %d migrations (%v), want %d", applied, err, len(migrations.Migrations.Sorted()))
		}
	})

	t.Run("unlock refuses while another session migrates", func(t *testing.T) {
		defer crash(t, hold(t))
		_, err := migrations.ClearStaleLock(ctx, migrations.NewMigrator(db))
		if err == nil || !strings.Contains(err.Error(), migrations.ErrLockHeld.Error()) {
			t.Fatalf("ClearStaleLock while the lock is held: %v, want %v", err, migrations.ErrLockHeld)
		}
	})
}

// lockKey is the advisory lock key of the migrations: the bytes of
// "migrate_". The test spells it out, so that a change of the key, which
// would let old and new versions migrate at once, fails here.
const lockKey int64 = 0x6d6967726174655f

// waitingForLock waits until a session of db's database waits for the
// migration lock, as pg_locks shows it (an advisory lock on lockKey, not
// granted), and returns its backend pid. It fails t if up, the result of
// the migration expected to wait, arrives first, or if no session waits
// within ten seconds.
func waitingForLock(t *testing.T, ctx context.Context, db *bun.DB, up <-chan error) int {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		var pids []int
		// pg_locks splits a 64-bit advisory key into classid and objid.
		err := db.NewRaw(`SELECT pid FROM pg_locks
			WHERE locktype = 'advisory' AND NOT granted AND objsubid = 1
			AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
			AND classid = ? AND objid = ?`, lockKey>>32, lockKey&0xffffffff).Scan(ctx, &pids)
		if err != nil {
			t.Fatalf("read pg_locks: %v", err)
		}
		if len(pids) > 0 {
			return pids[0]
		}
		select {
		case err := <-up:
			t.Fatalf("Up returned (%v) without waiting for the lock another session holds", err)
		case <-deadline:
			t.Fatal("no session waited for the migration lock within 10s of Up starting")
		case <-time.After(20 * time.Millisecond):
		}
	}
}
