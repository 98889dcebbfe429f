package integration

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/app/accounts"
	"github.com/asapjs/fiber-template/app/models"
	"github.com/asapjs/fiber-template/app/repositories"
	"github.com/asapjs/fiber-template/tests/integration/pgtest"
)

// loginCount is the outcome of one LoginFailures.Counted.
type loginCount struct {
	n   int
	err error
}

// pauseAfterCount holds the first count of recorded logins, inside its
// transaction, until release is closed: a login that has recorded and
// counted itself and not yet committed.
type pauseAfterCount struct {
	once             sync.Once
	counted, release chan struct{}
}

// BeforeQuery implements bun.QueryHook.
func (h *pauseAfterCount) BeforeQuery(ctx context.Context, _ *bun.QueryEvent) context.Context {
	return ctx
}

// AfterQuery implements bun.QueryHook.
func (h *pauseAfterCount) AfterQuery(ctx context.Context, e *bun.QueryEvent) {
	if e.Err != nil || !strings.HasPrefix(e.Query, "SELECT ") || !strings.Contains(e.Query, `FROM "login_failures"`) {
		return
	}
	h.once.Do(func() {
		close(h.counted)
		select {
		case <-h.release:
		case <-ctx.Done():
		}
	})
}

// TestThrottleCountsALoginThatHasNotCommitted plays the race of two
// guesses sent at once on PostgreSQL, where a count does not see the rows
// of transactions that have not committed: guess A has recorded itself
// and counted the 4 earlier failures and itself, 5, so its password may be
// checked, but has not committed when guess B counts. Were B to count
// then, it would not see A and count 5 too: 6 passwords checked where the
// limit is 5. So B waits for A to commit (the lock of the account and
// address) and counts 6.
//
// A is held inside its transaction until B is seen waiting for a lock,
// so without the lock B counts while A is held, every time.
func TestThrottleCountsALoginThatHasNotCommitted(t *testing.T) {
	t.Parallel()
	dsn := pgtest.NewDatabase(t)
	db := openMigrated(t, dsn)
	ctx := t.Context()
	const email, address = "raced@example.com", "192.0.2.7"
	since := func() time.Time { return time.Now().Add(-time.Hour) }
	failures := repositories.NewLoginFailures(db)
	for i := range accounts.LoginFailuresMax - 1 {
		if _, n, _, _, err := failures.Counted(ctx, email, address, time.Now(), since()); err != nil || n != i+1 {
			t.Fatalf("guess %d counts %d (%v)", i+1, n, err)
		}
	}

	hook := &pauseAfterCount{counted: make(chan struct{}), release: make(chan struct{})}
	held := repositories.NewLoginFailures(openDB(t, dsn).WithQueryHook(hook))
	a, b := make(chan loginCount, 1), make(chan loginCount, 1)
	count := func(r *repositories.LoginFailures, out chan<- loginCount) {
		_, n, _, _, err := r.Counted(ctx, email, address, time.Now(), since())
		out <- loginCount{n, err}
	}
	go count(held, a)
	select {
	case <-hook.counted:
	case got := <-a:
		t.Fatalf("guess A ended without counting: %+v", got)
	}

	go count(failures, b)
	var gotB loginCount
	waited, deadline := false, time.After(30*time.Second)
wait:
	for {
		select {
		case gotB = <-b:
			// B counted while A was held: it did not wait for A.
			break wait
		case <-time.After(10 * time.Millisecond):
			if waited = waitingForALock(ctx, t, db); waited {
				break wait
			}
		case <-deadline:
			t.Fatal("guess B neither counted nor waited for a lock")
		}
	}
	close(hook.release)
	gotA := <-a
	if waited {
		gotB = <-b
	}
	if gotA.err != nil || gotA.n != accounts.LoginFailuresMax {
		t.Errorf("guess A counts %d (%v), want %d", gotA.n, gotA.err, accounts.LoginFailuresMax)
	}
	if gotB.err != nil || gotB.n != accounts.LoginFailuresMax+1 {
		t.Errorf("guess B counts %d (%v), want %d: A's login, counted before B began and committed after, too",
			gotB.n, gotB.err, accounts.LoginFailuresMax+1)
	}
	if got := countRows(ctx, t, db, email); got != int64(accounts.LoginFailuresMax+1) {
		t.Errorf("%d failures recorded, want %d", got, accounts.LoginFailuresMax+1)
	}
}

// waitingForALock reports whether a session of db's database is waiting
// for an advisory lock.
func waitingForALock(ctx context.Context, t *testing.T, db *bun.DB) bool {
	t.Helper()
	var n int
	if err := db.NewRaw(`SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
		AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`).Scan(ctx, &n); err != nil {
		t.Fatalf("read pg_locks: %v", err)
	}
	return n > 0
}

// countRows counts the recorded failures of email.
func countRows(ctx context.Context, t *testing.T, db *bun.DB, email string) int64 {
	t.Helper()
	n, err := db.NewSelect().Model((*models.LoginFailure)(nil)).Where("email = ?", email).Count(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
