package integration

import (
	"bytes"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/app"
	"github.com/asapjs/fiber-template/migrations"
	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/idempotency"
	"github.com/asapjs/fiber-template/platform/router"
	"github.com/asapjs/fiber-template/tests/integration/pgtest"
)

func TestSignUpIsIdempotent(t *testing.T) {
	forEachUserBackend(t, testSignUpIsIdempotent)
}

func testSignUpIsIdempotent(t *testing.T, newDSN func(*testing.T) string) {
	a := newUserAPI(t, newDSN(t))
	signUp := func(t *testing.T, key, email, token string) response {
		t.Helper()
		header := map[string]string{}
		if key != "" {
			header["Idempotency-Key"] = key
		}
		return a.send(t, req{method: http.MethodPost, path: "/api/users", token: token, header: header,
			body: map[string]any{"email": email, "name": "Retry", "password": "retry-password-1"}})
	}

	t.Run("a retry gets the first answer and creates nothing", func(t *testing.T) {
		first := signUp(t, "key-1", "retry@example.com", "")
		first.wantUser(t, http.StatusCreated)
		if first.header.Get("Idempotent-Replayed") != "" {
			t.Errorf("the first answer says Idempotent-Replayed: %q", first.header.Get("Idempotent-Replayed"))
		}
		for _, key := range []string{"key-1", `"key-1"`} {
			again := signUp(t, key, "retry@example.com", "")
			again.wantUser(t, http.StatusCreated)
			if !bytes.Equal(again.body, first.body) || again.header.Get("ETag") != first.header.Get("ETag") || again.header.Get("Idempotent-Replayed") != "true" {
				t.Errorf("retry with %s: %s ETag %q replayed %q; want %s ETag %q replayed true", key, again.body,
					again.header.Get("ETag"), again.header.Get("Idempotent-Replayed"), first.body, first.header.Get("ETag"))
			}
		}
		wantRows(t, a.db, "retry@example.com", 1)
	})

	t.Run("the same key with another request is a 422 and creates nothing", func(t *testing.T) {
		signUp(t, "key-1", "other@example.com", "").wantCode(t, http.StatusUnprocessableEntity, "idempotency_key_reused")
		wantRows(t, a.db, "other@example.com", 0)
	})

	t.Run("keys belong to their caller", func(t *testing.T) {
		// A subject's keys are not an anonymous caller's.
		signUp(t, "key-1", "admins@example.com", a.adminToken(t)).wantUser(t, http.StatusCreated)
		// Nor are one client address's another's: the service behind a
		// trusted proxy (app.Test's peer), whose X-Forwarded-For names
		// the client. (One key on two routes is platform/router's
		// TestIdempotencyKeysBelongToTheirCallerAndRoute: the service has
		// one idempotent route.)
		proxied := newThrottleAPI(t, a.db, router.Config{TrustedProxies: []string{"0.0.0.0"}}, app.Options{})
		from := func(addr, email string) response {
			t.Helper()
			return proxied.send(t, req{method: http.MethodPost, path: "/api/users",
				header: map[string]string{"Idempotency-Key": "key-3", "X-Forwarded-For": addr},
				body:   map[string]any{"email": email, "name": "Retry", "password": "retry-password-1"}})
		}
		first := from("203.0.113.1", "address-1@example.com")
		first.wantUser(t, http.StatusCreated)
		if again := from("203.0.113.1", "address-1@example.com"); again.header.Get("Idempotent-Replayed") != "true" || !bytes.Equal(again.body, first.body) {
			t.Errorf("the retry from the same address: %d %s replayed %q, want the first answer replayed", again.status, again.body, again.header.Get("Idempotent-Replayed"))
		}
		// Another address's request with the key runs: it cannot probe
		// the first one's request (a 422), nor replay its answer.
		from("203.0.113.2", "address-2@example.com").wantUser(t, http.StatusCreated)
		from("203.0.113.3", "address-1@example.com").wantCode(t, http.StatusConflict, "email_taken")
		wantRows(t, a.db, "address-1@example.com", 1)
	})

	t.Run("a failed request keeps nothing: its retry runs again", func(t *testing.T) {
		signUp(t, "key-2", "retry@example.com", "").wantCode(t, http.StatusConflict, "email_taken")
		signUp(t, "key-2", "retry@example.com", "").wantCode(t, http.StatusConflict, "email_taken")
		signUp(t, "key-2", "fresh@example.com", "").wantUser(t, http.StatusCreated)
	})

	t.Run("a malformed key is a 400 naming the header", func(t *testing.T) {
		for _, key := range []string{`"unterminated`, `"a" "b"`, string(bytes.Repeat([]byte("k"), 256)), "caf\u00e9"} {
			signUp(t, key, "malformed@example.com", "").wantFields(t, http.StatusBadRequest, "Idempotency-Key")
		}
		wantRows(t, a.db, "malformed@example.com", 0)
	})
}

// TestExpiredIdempotencyKeysAreSwept runs the service with a one-second
// IdempotencyTTL: a key is kept while it lives, and the service deletes
// it once expired, with no request naming it, so the table does not grow
// without bound.
func TestExpiredIdempotencyKeysAreSwept(t *testing.T) {
	forEachUserBackend(t, func(t *testing.T, newDSN func(*testing.T) string) {
		db := openDB(t, newDSN(t))
		a := newThrottleAPI(t, db, router.Config{IdempotencyTTL: time.Second}, app.Options{})
		a.send(t, req{method: http.MethodPost, path: "/api/users", header: map[string]string{"Idempotency-Key": "swept-1"},
			body: map[string]any{"email": "swept@example.com", "name": "Swept", "password": "swept-password-1"}}).wantUser(t, http.StatusCreated)
		keys := func() int64 {
			n, err := db.NewSelect().TableExpr("idempotency_keys").Count(t.Context())
			if err != nil {
				t.Fatalf("count idempotency keys: %v", err)
			}
			return n
		}
		if n := keys(); n != 1 {
			t.Fatalf("%d idempotency keys after one sign-up with a key, want 1", n)
		}
		for deadline := time.Now().Add(30 * time.Second); keys() > 0; time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("the expired key is still there 30 s later")
			}
		}
	})
}

// wantRows fails t unless email has n users.
func wantRows(t *testing.T, db *bun.DB, email string, n int) {
	t.Helper()
	got, err := db.NewSelect().TableExpr("users").Where("email = ?", email).Count(t.Context())
	if err != nil || int64(got) != int64(n) {
		t.Fatalf("users with email %s: %d (%v), want %d", email, got, err, n)
	}
}

func TestIdempotencyKeysStore(t *testing.T) {
	forEachUserBackend(t, func(t *testing.T, newDSN func(*testing.T) string) {
		testIdempotencyKeysStore(t, database.NewIdempotencyKeys(openMigrated(t, newDSN(t))))
	})
}

func testIdempotencyKeysStore(t *testing.T, keys *database.IdempotencyKeys) {
	ctx := t.Context()
	start := time.UnixMilli(1_800_000_000_000)
	claim := func(id, fp string, at time.Duration) idempotency.Claim {
		return idempotency.Claim{ID: id, Fingerprint: fp, Now: start.Add(at), Lease: 15 * time.Second, TTL: time.Hour}
	}
	steps := []struct {
		name    string
		do      func() (idempotency.Record, bool, error)
		claimed bool
		want    idempotency.Record
	}{
		{"a new key is claimed", func() (idempotency.Record, bool, error) { return keys.Claim(ctx, claim("a", "f1", 0)) },
			true, idempotency.Record{Fingerprint: "f1"}},
		{"while it runs, a claim sees it running", func() (idempotency.Record, bool, error) { return keys.Claim(ctx, claim("a", "f1", time.Second)) },
			false, idempotency.Record{Fingerprint: "f1"}},
		{"another request sees its fingerprint", func() (idempotency.Record, bool, error) { return keys.Claim(ctx, claim("a", "f2", time.Second)) },
			false, idempotency.Record{Fingerprint: "f1"}},
		{"once complete, a claim sees the answer", func() (idempotency.Record, bool, error) {
			if err := keys.Complete(ctx, "a", idempotency.Record{Status: 201, Header: []byte(`{"ETag":"\"1\""}`), Body: []byte(`{"id":1}`)}); err != nil {
				return idempotency.Record{}, false, err
			}
			return keys.Claim(ctx, claim("a", "f1", 2*time.Second))
		}, false, idempotency.Record{Fingerprint: "f1", Done: true, Status: 201, Header: []byte(`{"ETag":"\"1\""}`), Body: []byte(`{"id":1}`)}},
		{"a completed key outlives the lease", func() (idempotency.Record, bool, error) { return keys.Claim(ctx, claim("a", "f1", time.Minute)) },
			false, idempotency.Record{Fingerprint: "f1", Done: true, Status: 201, Header: []byte(`{"ETag":"\"1\""}`), Body: []byte(`{"id":1}`)}},
		{"an expired key is claimed anew, by any request", func() (idempotency.Record, bool, error) { return keys.Claim(ctx, claim("a", "f2", time.Hour)) },
			true, idempotency.Record{Fingerprint: "f2"}},
		{"a released key is claimed anew", func() (idempotency.Record, bool, error) {
			if err := keys.Release(ctx, "a"); err != nil {
				return idempotency.Record{}, false, err
			}
			return keys.Claim(ctx, claim("a", "f3", time.Hour))
		}, true, idempotency.Record{Fingerprint: "f3"}},
		{"a lapsed lease is not taken by another request", func() (idempotency.Record, bool, error) {
			return keys.Claim(ctx, claim("a", "f4", time.Hour+time.Minute))
		},
			false, idempotency.Record{Fingerprint: "f3"}},
		{"but by a retry of the same one", func() (idempotency.Record, bool, error) {
			return keys.Claim(ctx, claim("a", "f3", time.Hour+time.Minute))
		},
			true, idempotency.Record{Fingerprint: "f3"}},
	}
	for _, s := range steps {
		rec, claimed, err := s.do()
		if err != nil || claimed != s.claimed || rec.Fingerprint != s.want.Fingerprint || rec.Done != s.want.Done ||
			rec.Status != s.want.Status || !bytes.Equal(rec.Header, s.want.Header) || !bytes.Equal(rec.Body, s.want.Body) {
			t.Fatalf("%s: %+v claimed %v err %v; want %+v claimed %v", s.name, rec, claimed, err, s.want, s.claimed)
		}
	}
	if _, _, err := keys.Claim(ctx, claim("b", "f1", 0)); err != nil {
		t.Fatal(err)
	}
	if n, err := keys.Sweep(ctx, start.Add(time.Hour)); err != nil || n != 1 {
		t.Fatalf("Sweep at an hour: %d, %v; want the one key of that age", n, err)
	}
	if n, err := keys.Sweep(ctx, start.Add(3*time.Hour)); err != nil || n != 1 {
		t.Fatalf("Sweep later: %d, %v; want the other key", n, err)
	}
}

// TestIdempotentSignUpFromTwoInstances retries sign-ups through two
// processes of the built binary on one PostgreSQL: a retry on the other
// instance gets the first answer, and one sent while the first still runs
// is a 409 there. That the two overlap is made certain, not left to
// timing: the test holds the users table locked, so that the first
// sign-up, its key claimed, waits at its INSERT until the retry has been
// answered.
func TestIdempotentSignUpFromTwoInstances(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs cmd/api twice; skipped with -short")
	}
	t.Parallel()
	dsn := pgtest.NewDatabase(t)
	bases := startInstances(t, 2, dsn, nil)
	db := openMigrated(t, dsn)
	signUp := func(base, key, email string) response {
		return call(t, base, http.MethodPost, "/api/users", "", map[string]string{"Idempotency-Key": key},
			fmt.Sprintf(`{"email":%q,"name":"Twice","password":"twice-password-1"}`, email))
	}

	first := signUp(bases[0], "instances-1", "one@example.com")
	first.wantStatus(t, http.StatusCreated)
	again := signUp(bases[1], "instances-1", "one@example.com")
	if again.status != http.StatusCreated || !bytes.Equal(again.body, first.body) || again.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("the retry on the other instance: %d %s replayed %q; want the first answer %s, replayed", again.status, again.body, again.header.Get("Idempotent-Replayed"), first.body)
	}
	wantRows(t, db, "one@example.com", 1)

	for round := range 2 {
		key, email := fmt.Sprintf("race-%d", round), fmt.Sprintf("race%d@example.com", round)
		// Each instance goes first once.
		one, other := bases[round], bases[1-round]
		var firstRes, retry response
		func() {
			tx, err := db.BeginTx(t.Context(), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Rollback() // the lock ends with the round, however it ends
			if _, err := tx.ExecContext(t.Context(), "LOCK TABLE users IN EXCLUSIVE MODE"); err != nil {
				t.Fatal(err)
			}
			done := make(chan response, 1)
			go func() { done <- signUp(one, key, email) }()
			waitForInsertBlocked(t, db)
			retry = signUp(other, key, email)
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
			firstRes = <-done
		}()
		if firstRes.status != http.StatusCreated || retry.status != http.StatusConflict || retry.header.Get("Retry-After") == "" {
			t.Fatalf("round %d: the first %d %s, the retry while it ran %d %s (Retry-After %q); want 201, and 409 with a Retry-After",
				round, firstRes.status, firstRes.body, retry.status, retry.body, retry.header.Get("Retry-After"))
		}
		if late := signUp(other, key, email); late.status != http.StatusCreated || !bytes.Equal(late.body, firstRes.body) {
			t.Fatalf("round %d: the retry once the first was done: %d %s, want its answer %s", round, late.status, late.body, firstRes.body)
		}
		wantRows(t, db, email, 1)
	}
}

// waitForInsertBlocked waits until a session of this database waits for a
// lock on the users table, as a sign-up's INSERT does while the test holds
// the table: that sign-up has claimed its key and hashed its password.
func waitForInsertBlocked(t *testing.T, db *bun.DB) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		var waiting int
		err := db.NewRaw(`SELECT count(*) FROM pg_locks
			WHERE NOT granted AND relation = 'users'::regclass
			AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`).Scan(t.Context(), &waiting)
		if err != nil {
			t.Fatalf("read pg_locks: %v", err)
		}
		if waiting > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("no sign-up waited for the users table within 30 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// openMigrated opens the database at dsn, migrated, closed when t ends.
func openMigrated(t *testing.T, dsn string) *bun.DB {
	t.Helper()
	db, err := database.Open(t.Context(), dsn)
	if err != nil {
		t.Fatalf("open database: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	if err := migrations.Up(t.Context(), db); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	return db
}
