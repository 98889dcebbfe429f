package integration

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"
	"golang.org/x/crypto/bcrypt"

	"github.com/asapjs/fiber-template/app"
	"github.com/asapjs/fiber-template/migrations"
	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/router"
	"github.com/asapjs/fiber-template/tests/integration/pgtest"
)

// outageTimeout is the request timeout of the outage tests: short, so a
// frozen database costs the test seconds.
const outageTimeout = 2 * time.Second

// newOutageAPI builds the users service on a fresh PostgreSQL database as
// cmd/api does, with the request timeout and a pool bounded by pool.
func newOutageAPI(t *testing.T, dsn string, pool database.Pool) (*userAPI, *bun.DB) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	db, err := database.OpenPool(ctx, dsn, pool)
	if err != nil {
		t.Fatalf("open database: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	if err := migrations.Up(ctx, db); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	r, err := app.NewWithOptions(db, router.Config{
		BasePath:       "/api",
		JWTSecret:      userTestSecret,
		RequestTimeout: outageTimeout,
		Logger:         slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelError})),
	}, app.Options{BcryptCost: bcrypt.MinCost})
	if err != nil {
		t.Fatalf("build service: %v", err)
	}
	return &userAPI{r: r, db: db, passwords: map[string]bool{}}, db
}

// wantUnavailable checks a 503 problem with Retry-After and the code.
func (res response) wantUnavailable(t *testing.T, code string) {
	t.Helper()
	res.wantCode(t, http.StatusServiceUnavailable, code)
	if res.header.Get("Retry-After") == "" {
		t.Errorf("503 without Retry-After; headers %v", res.header)
	}
}

// eventually sends rq until it answers status, for at most wait.
func (a *userAPI) eventually(t *testing.T, rq req, status int, wait time.Duration) response {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		res := a.send(t, rq)
		if res.status == status || time.Now().After(deadline) {
			return res
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestFrozenDatabase freezes the controlled PostgreSQL server, which may be
// the shared one, so it must not run in parallel with the tests that use it.
func TestFrozenDatabase(t *testing.T) {
	a, _ := newOutageAPI(t, pgtest.NewControlledDatabase(t), database.Pool{StatementTimeout: outageTimeout})
	token := a.newUserToken(t, "frozen@example.com")
	me := a.send(t, req{method: http.MethodGet, path: "/api/users", token: token})
	var page pageJSON
	me.decode(t, http.StatusOK, &page)
	path := fmt.Sprintf("/api/users/%d", page.Data[0].ID)
	a.send(t, req{method: http.MethodGet, path: path, token: token}).wantUser(t, http.StatusOK)

	pgtest.Freeze(t)
	t.Run("requests answer 503 within the request timeout and a second, not hang", func(t *testing.T) {
		const clients = 8
		type result struct {
			res  response
			took time.Duration
			err  error
		}
		results := make(chan result, clients)
		for range clients {
			go func() {
				begun := time.Now()
				res, err := a.do(t, req{method: http.MethodGet, path: path, token: token})
				results <- result{res, time.Since(begun), err}
			}()
		}
		bound := time.After(outageTimeout + 5*time.Second)
		for range clients {
			var r result
			select {
			case r = <-results:
			case <-bound:
				t.Fatalf("requests still hang %s after the database froze", outageTimeout+5*time.Second)
			}
			switch {
			case r.err != nil:
				t.Error(r.err)
			case r.took > outageTimeout+time.Second:
				t.Errorf("answered after %s, want within %s", r.took, outageTimeout+time.Second)
			default:
				r.res.wantUnavailable(t, "request_timeout")
			}
		}
	})

	pgtest.Thaw(t)
	t.Run("it answers 200 again once the database resumes, without a restart", func(t *testing.T) {
		a.eventually(t, req{method: http.MethodGet, path: path, token: token}, http.StatusOK, 10*time.Second).
			wantUser(t, http.StatusOK)
	})
}

// signUps is a writer signing up users through the service until stopped,
// remembering those acknowledged and what the others answered. Every
// answer is signalled on changed, so a test waits for what the writer saw
// rather than for a while.
type signUps struct {
	mu      sync.Mutex
	acked   []string    // emails whose sign-up answered 201
	failed  map[int]int // the other answers, by status
	changed chan struct{}
	stop    chan struct{}
	done    sync.WaitGroup
}

// startSignUps starts the writer; it is stopped when t ends, if not before.
func startSignUps(t *testing.T, a *userAPI) *signUps {
	t.Helper()
	w := &signUps{failed: map[int]int{}, changed: make(chan struct{}, 1), stop: make(chan struct{})}
	w.done.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-w.stop:
				return
			default:
			}
			email := fmt.Sprintf("writer-%d@example.com", i)
			res, err := a.do(t, req{method: http.MethodPost, path: "/api/users",
				body: map[string]any{"email": email, "name": "Writer", "password": "writer-pass-1234"}})
			if err != nil {
				t.Error(err)
				return
			}
			w.mu.Lock()
			if res.status == http.StatusCreated {
				w.acked = append(w.acked, email)
			} else {
				w.failed[res.status]++
			}
			w.mu.Unlock()
			select {
			case w.changed <- struct{}{}:
			default:
			}
			// A pace, not a wait: the outage is observed through the
			// answers, and a writer at full speed would only flood the log.
			time.Sleep(20 * time.Millisecond)
		}
	})
	t.Cleanup(w.halt)
	return w
}

// halt stops the writer and waits for its last sign-up; it may be called
// more than once.
func (w *signUps) halt() {
	select {
	case <-w.stop:
	default:
		close(w.stop)
	}
	w.done.Wait()
}

// ackedCount is the number of acknowledged sign-ups so far.
func (w *signUps) ackedCount() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.acked)
}

// waitUntil waits until cond, which reads the writer's record under its
// lock, holds, and fails t with what was awaited if that takes longer than
// wait.
func (w *signUps) waitUntil(t *testing.T, wait time.Duration, what string, cond func(acked int, failed map[int]int) bool) {
	t.Helper()
	deadline := time.After(wait)
	for {
		w.mu.Lock()
		ok := cond(len(w.acked), w.failed)
		acked, failed := len(w.acked), maps.Clone(w.failed)
		w.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-w.changed:
		case <-deadline:
			t.Fatalf("%s did not happen within %s: %d sign-ups acknowledged, others answered %v", what, wait, acked, failed)
		}
	}
}

// TestKilledDatabase kills the controlled PostgreSQL server, which may be
// the shared one, while users sign up, so it must not run in parallel with
// the tests that use it.
func TestKilledDatabase(t *testing.T) {
	dsn := pgtest.NewControlledDatabase(t)
	// An acknowledged commit must survive a crash: the harness runs the
	// server with synchronous_commit off, so this database turns it on.
	admin := openDB(t, dsn)
	if _, err := admin.ExecContext(t.Context(), "ALTER DATABASE ? SET synchronous_commit = on", bun.Ident(databaseOf(t, admin))); err != nil {
		t.Fatalf("turn synchronous_commit on: %v", err)
	}
	a, _ := newOutageAPI(t, dsn, database.Pool{StatementTimeout: outageTimeout})
	token := a.newUserToken(t, "killed@example.com")

	// The crash must have acknowledged writes to lose, and the writer must
	// see it: each step waits for the answers that show the last one done.
	const ackedBeforeKill = 3
	w := startSignUps(t, a)
	w.waitUntil(t, 30*time.Second, fmt.Sprintf("%d acknowledged sign-ups before the kill", ackedBeforeKill),
		func(acked int, _ map[int]int) bool { return acked >= ackedBeforeKill })
	ackedAtKill := w.ackedCount()

	pgtest.Kill(t)
	t.Run("requests answer 503 with Retry-After while it is down", func(t *testing.T) {
		for _, rq := range []req{
			{method: http.MethodGet, path: "/api/users", token: token},
			{method: http.MethodPost, path: "/api/users", body: map[string]any{"email": "down@example.com", "name": "Down", "password": "down-pass-1234"}},
		} {
			a.send(t, rq).wantUnavailable(t, "service_unavailable")
		}
	})
	w.waitUntil(t, 30*time.Second, "a sign-up answering 503 while the database is down",
		func(_ int, failed map[int]int) bool { return failed[http.StatusServiceUnavailable] > 0 })

	pgtest.Start(t)
	ackedAtStart := w.ackedCount()
	t.Run("it serves again once the database is back, without a restart", func(t *testing.T) {
		a.eventually(t, req{method: http.MethodGet, path: "/api/users", token: token}, http.StatusOK, 15*time.Second).
			wantStatus(t, http.StatusOK)
	})
	w.waitUntil(t, 30*time.Second, "an acknowledged sign-up after the restart",
		func(acked int, _ map[int]int) bool { return acked > ackedAtStart })
	w.halt()

	t.Run("no acknowledged write is lost", func(t *testing.T) {
		w.mu.Lock()
		defer w.mu.Unlock()
		t.Logf("%d sign-ups acknowledged, others answered %v", len(w.acked), w.failed)
		if w.failed[http.StatusServiceUnavailable] == 0 {
			t.Error("no sign-up answered 503: the writer never saw the outage")
		}
		for status := range w.failed {
			if status != http.StatusServiceUnavailable {
				t.Errorf("a sign-up answered %d during the outage, want only 201 or 503", status)
			}
		}
		if ackedAtKill < ackedBeforeKill {
			t.Fatalf("%d sign-ups acknowledged before the kill, want at least %d: the crash had too little to lose", ackedAtKill, ackedBeforeKill)
		}
		for _, email := range w.acked {
			res := a.send(t, req{method: http.MethodGet, path: "/api/users?q=" + email, token: token})
			var page pageJSON
			res.decode(t, http.StatusOK, &page)
			if len(page.Data) != 1 {
				t.Errorf("acknowledged user %s is missing after the crash", email)
			}
		}
	})
}

// databaseOf names the database db is connected to.
func databaseOf(t *testing.T, db *bun.DB) string {
	t.Helper()
	var name string
	if err := db.NewRaw("SELECT current_database()").Scan(t.Context(), &name); err != nil {
		t.Fatal(err)
	}
	return name
}

func TestPoolLimits(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db, err := database.OpenPool(ctx, pgtest.NewDatabase(t), database.Pool{StatementTimeout: 250 * time.Millisecond, MaxOpenConns: 3, MaxIdleConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()

	t.Run("every connection has the statement timeout", func(t *testing.T) {
		var got string
		if err := db.NewRaw("SHOW statement_timeout").Scan(ctx, &got); err != nil {
			t.Fatal(err)
		}
		if got != "250ms" {
			t.Errorf("statement_timeout %q, want 250ms", got)
		}
	})

	t.Run("a statement running past it is cut by the server and is an outage", func(t *testing.T) {
		_, err := db.ExecContext(ctx, "SELECT pg_sleep(5)")
		if err == nil || !database.Unavailable(err) {
			t.Errorf("pg_sleep(5) = %v, want a cancelled statement", err)
		}
	})

	t.Run("the pool is bounded", func(t *testing.T) {
		if got := db.Stats().MaxOpenConnections; got != 3 {
			t.Errorf("MaxOpenConnections %d, want 3", got)
		}
	})
}
