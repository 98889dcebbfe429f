package integration

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/app/models"
	"github.com/asapjs/fiber-template/app/repositories"
	"github.com/asapjs/fiber-template/internal/testkit"
	"github.com/asapjs/fiber-template/migrations"
	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/paging"
	"github.com/asapjs/fiber-template/platform/servicetest"
	"github.com/asapjs/fiber-template/tests/integration/pgtest"
)

// inRecovery reports whether the query's connection is a standby: true on
// the replica, false on the primary. It is a plain SELECT, so it is routed
// as every read is.
func inRecovery(t *testing.T, ctx context.Context, db bun.IDB) bool {
	t.Helper()
	var standby bool
	if err := db.NewSelect().ColumnExpr("pg_is_in_recovery()").Scan(ctx, &standby); err != nil {
		t.Fatalf("pg_is_in_recovery: %v", err)
	}
	return standby
}

// TestReadReplicas runs the database layer against a real streaming
// replica of the controlled test server.
func TestReadReplicas(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dsn := pgtest.NewControlledDatabase(t)
	if err := migrateDSN(ctx, dsn); err != nil {
		t.Fatal(err)
	}
	replica := pgtest.NewReplica(t)
	replica.WaitCaughtUp(t)
	db, replicas, err := database.OpenWithReplicas(ctx, dsn, []string{replica.URL(t, dsn)}, database.ReplicaConfig{
		Logger:        slog.New(slog.NewTextHandler(t.Output(), nil)),
		CheckInterval: 100 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	users := repositories.NewUsers(db)

	t.Run("reads outside a transaction go to the replica, transactions to the primary", func(t *testing.T) {
		if !inRecovery(t, ctx, db) {
			t.Error("a read went to the primary")
		}
		err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			if inRecovery(t, ctx, tx) {
				t.Error("a read in a transaction went to the replica")
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if inRecovery(t, database.OnPrimary(ctx), db) {
			t.Error("a read under OnPrimary went to the replica")
		}
	})

	t.Run("a session that wrote reads its own write, though the replica lags", func(t *testing.T) {
		replica.PauseReplay(t)
		session := database.WithSession(ctx)
		if !inRecovery(t, session, db) {
			t.Error("a session that has not written read from the primary")
		}
		u := &models.User{Email: "lag@example.com", Name: "Lag", PasswordHash: "x", Role: "user", Active: true}
		if err := users.Create(session, u); err != nil {
			t.Fatal(err)
		}
		if _, err := users.Get(session, u.ID); err != nil {
			t.Errorf("the session that created user %d does not find it: %v", u.ID, err)
		}
		// Without the session the read goes to the paused replica: this
		// is what the session protects against.
		if _, err := users.Get(ctx, u.ID); !errors.Is(err, repositories.ErrNotFound) {
			t.Errorf("a read outside the session found the new user (%v): the replica is not serving, or not lagging", err)
		}
		replica.ResumeReplay(t)
		replica.WaitCaughtUp(t)
		if _, err := users.Get(ctx, u.ID); err != nil {
			t.Errorf("after the replica caught up it does not have user %d: %v", u.ID, err)
		}
	})

	t.Run("a list's count and estimate are the replica's, as its page is", func(t *testing.T) {
		cursors, err := paging.NewCursors([]byte("replica test cursors"))
		if err != nil {
			t.Fatal(err)
		}
		lister := func(count database.CountStrategy, opts ...database.Option) *repositories.Users {
			return repositories.NewUsers(db, append([]database.Option{database.WithCursors(cursors), database.WithCount(count)}, opts...)...)
		}
		add := func(prefix string, n int) {
			for i := range n {
				u := &models.User{Email: fmt.Sprintf("%s%02d@example.com", prefix, i), Name: "Counted", PasswordHash: "x", Role: "member", Active: true}
				if err := users.Create(ctx, u); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := db.ExecContext(ctx, "ANALYZE users"); err != nil {
				t.Fatal(err)
			}
		}
		total := func(r *repositories.Users) int {
			t.Helper()
			p, err := r.List(ctx, repositories.UserFilter{}, paging.Paging{Limit: 5}, nil, "")
			if err != nil {
				t.Fatal(err)
			}
			return p.TotalElements
		}
		add("counted", 30)
		replica.WaitCaughtUp(t)
		onReplica := total(lister(database.CountExact))
		// The primary moves on; the paused replica does not see it.
		replica.PauseReplay(t)
		defer replica.ResumeReplay(t)
		add("unseen", 40)
		if got := total(lister(database.CountExact)); got != onReplica {
			t.Errorf("the exact count is %d, the replica holds %d (the primary %d)", got, onReplica, onReplica+40)
		}
		if got := total(lister(database.CountAuto(time.Second), database.WithReads(replicas))); got != onReplica {
			t.Errorf("the count within the budget is %d, the replica holds %d (the primary %d)", got, onReplica, onReplica+40)
		}
		if got := total(lister(database.CountEstimate, database.WithReads(replicas))); got > onReplica+20 {
			t.Errorf("the estimate is %d: the primary's (%d rows), not the replica's (%d)", got, onReplica+40, onReplica)
		}
		// Without WithReads the EXPLAIN runs on the primary: what this
		// test tells apart.
		if got := total(lister(database.CountEstimate)); got < onReplica+20 {
			t.Errorf("the primary's estimate is %d, want about %d: the test cannot tell the servers apart", got, onReplica+40)
		}
	})

	t.Run("a stopped replica is skipped and the primary serves, until it is back", func(t *testing.T) {
		replica.Stop(t)
		for range 3 {
			if inRecovery(t, ctx, db) {
				t.Fatal("a read went to the stopped replica")
			}
		}
		if s := replicas.Stats()[0]; s.Healthy || s.Failovers == 0 && replicas.PrimaryReads() == 0 {
			t.Errorf("stats %+v, primary reads %d: want the replica down and the reads counted", s, replicas.PrimaryReads())
		}
		replica.Start(t)
		deadline := time.Now().Add(30 * time.Second)
		for !inRecovery(t, ctx, db) {
			if time.Now().After(deadline) {
				t.Fatal("reads did not go back to the replica within 30s of its restart")
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
}

// migrateDSN applies the migrations to the database at dsn.
func migrateDSN(ctx context.Context, dsn string) error {
	db, err := database.Open(ctx, dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	return migrations.Up(ctx, db)
}

// TestReadReplicasBinary runs the built binary with DATABASE_REPLICA_URLS:
// lists are served by the replica, and stopping it keeps the API answering.
func TestReadReplicasBinary(t *testing.T) {
	runsTheBinary(t)
	t.Parallel()
	dsn := pgtest.NewControlledDatabase(t)
	replica := pgtest.NewReplica(t)
	bin := buildAPI(t)
	port := testkit.Port(t)
	api := startAPI(t, bin, map[string]string{
		"HOST":                  "127.0.0.1",
		"PORT":                  strconv.Itoa(port),
		"DATABASE_URL":          dsn,
		"DATABASE_REPLICA_URLS": replica.URL(t, dsn),
		"JWT_SECRET":            "integration-test-secret-of-32-bytes-or-more",
		// The bootstrap admin, who may list the users.
		"ADMIN_EMAIL":    "first@example.com",
		"ADMIN_PASSWORD": "replica-pass-1",
	})
	api.WaitOK(t, healthCheck(port))
	base := "http://127.0.0.1:" + strconv.Itoa(port) + "/api"
	call := func(t *testing.T, method, path, token, body string) servicetest.Response {
		t.Helper()
		req, err := http.NewRequest(method, base+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		return servicetest.Fetch(t, req)
	}
	signUp := func(t *testing.T, email string) {
		t.Helper()
		res := call(t, http.MethodPost, "/users", "", `{"email":"`+email+`","name":"Replica","password":"replica-pass-1"}`)
		if res.Status != http.StatusCreated {
			t.Fatalf("sign up %s: %d %s", email, res.Status, res.Body)
		}
	}
	// The login is another request, which may read from the replica: wait
	// until it has the new user (see docs/scaling.md on read-your-writes
	// across requests).
	replica.WaitCaughtUp(t)
	login := call(t, http.MethodPost, "/auth/login", "", `{"username":"first@example.com","password":"replica-pass-1"}`)
	token := servicetest.Decode[struct {
		AccessToken string `json:"access_token"`
	}](t, login.Body).AccessToken
	if token == "" {
		t.Fatalf("login: %d %s", login.Status, login.Body)
	}
	listed := func(t *testing.T) int {
		t.Helper()
		res := call(t, http.MethodGet, "/users", token, "")
		if res.Status != http.StatusOK {
			t.Fatalf("list users: %d %s\n%s", res.Status, res.Body, api.Output())
		}
		return len(servicetest.Decode[struct {
			Data []any `json:"data"`
		}](t, res.Body).Data)
	}

	t.Run("a list is served by the replica: a lagging one does not show a new user yet", func(t *testing.T) {
		replica.PauseReplay(t)
		signUp(t, "second@example.com")
		if n := listed(t); n != 1 {
			t.Errorf("the list shows %d users while the replica lags behind the second sign-up, want 1", n)
		}
		replica.ResumeReplay(t)
		replica.WaitCaughtUp(t)
		if n := listed(t); n != 2 {
			t.Errorf("the list shows %d users after the replica caught up, want 2", n)
		}
	})

	t.Run("with the replica stopped the API still answers 200 from the primary", func(t *testing.T) {
		replica.Stop(t)
		signUp(t, "third@example.com")
		if n := listed(t); n != 3 {
			t.Errorf("the list shows %d users with the replica down, want 3 from the primary", n)
		}
	})
}
