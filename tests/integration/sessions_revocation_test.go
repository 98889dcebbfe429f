package integration

import (
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/app"
	"github.com/asapjs/fiber-template/app/repositories"
	"github.com/asapjs/fiber-template/app/sessions"
	"github.com/asapjs/fiber-template/platform/token"
	"github.com/asapjs/fiber-template/tests/integration/pgtest"
)

// listenerWait bounds how long the revocation listener may take to notice
// a lost connection, reconnect after its one-second pause, and reload.
const listenerWait = 15 * time.Second

// listenerPID returns the backend pid of the revocation listener on db's
// database other than skip (0 for none), waiting up to listenerWait for
// one to be listening.
func listenerPID(t *testing.T, db *bun.DB, skip int) int {
	t.Helper()
	deadline := time.Now().Add(listenerWait)
	for {
		pid, ok := listening(t, db)
		if ok && pid != skip {
			return pid
		}
		if time.Now().After(deadline) {
			t.Fatalf("no revocation listener (other than backend %d) on the database after %s", skip, listenerWait)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// listening returns the backend pid of a connection of db's database that
// listens on the revocation channel, if any: its last statement was the
// LISTEN, and it only waits for notifications since.
func listening(t *testing.T, db *bun.DB) (int, bool) {
	t.Helper()
	var pids []int
	if err := db.NewRaw("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND query = ?",
		"LISTEN "+repositories.RevokedChannel).Scan(t.Context(), &pids); err != nil {
		t.Fatalf("find the revocation listener: %v", err)
	}
	if len(pids) == 0 {
		return 0, false
	}
	return pids[0], true
}

// otherInstance is the sessions of another instance on db, as it revokes
// them: without a listener of its own, so the only one on the database
// stays the instance's under test.
func otherInstance(t *testing.T, db *bun.DB) *sessions.Service {
	t.Helper()
	return sessions.New(db, sessions.Config{
		Keys:       secretKeys(t, userTestSecret),
		Issuer:     app.DefaultIssuer,
		Audience:   app.DefaultAudience,
		AccessTTL:  app.DefaultAccessTokenTTL,
		RefreshTTL: app.DefaultRefreshTokenTTL,
		Logger:     slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn})),
	})
}

// TestRevocationsReloadedAfterTheListenerReconnects ends a session while
// the instance's revocation listener is disconnected, so that the
// notification reaches no one: after the reconnect the instance must
// refuse the session's token all the same.
func TestRevocationsReloadedAfterTheListenerReconnects(t *testing.T) {
	t.Parallel()
	dsn := pgtest.NewDatabase(t)
	a := newUserAPI(t, dsn)
	_, token := a.memberToken(t, "listener@example.com")
	me := req{method: http.MethodGet, path: "/api/users/me", token: token}
	a.send(t, me).wantStatus(t, http.StatusOK)

	db := openDB(t, dsn)
	before := listenerPID(t, db, 0)
	var gone bool
	// pg_terminate_backend with a timeout waits for the backend to exit.
	if err := db.NewRaw("SELECT pg_terminate_backend(?, 10000)", before).Scan(t.Context(), &gone); err != nil || !gone {
		t.Fatalf("terminate the listener's backend %d: %v (gone %v)", before, err, gone)
	}
	if err := endOn(t, otherInstance(t, db), token); err != nil {
		t.Fatalf("end the session on another instance: %v", err)
	}
	// A listener that connects stays connected: none now means none was
	// when the revocation committed, and its notification was lost.
	if pid, ok := listening(t, db); ok {
		t.Fatalf("the listener was back (backend %d) before the revocation committed, within its one-second pause; the test proves nothing", pid)
	}

	after := listenerPID(t, db, before)
	t.Logf("listener reconnected: backend %d, then %d", before, after)
	a.eventually(t, me, http.StatusUnauthorized, listenerWait).wantProblem(t, http.StatusUnauthorized)

	t.Run("a revocation after the reconnect is notified again", func(t *testing.T) {
		_, token := a.memberToken(t, "notified@example.com")
		me := req{method: http.MethodGet, path: "/api/users/me", token: token}
		a.send(t, me).wantStatus(t, http.StatusOK)
		if err := endOn(t, otherInstance(t, db), token); err != nil {
			t.Fatalf("end the session on another instance: %v", err)
		}
		a.eventually(t, me, http.StatusUnauthorized, listenerWait).wantProblem(t, http.StatusUnauthorized)
	})
}

// TestRevocationsSurviveARestart ends sessions in each way there is, then
// starts a new instance on the same database: it refuses their tokens from
// its first request, while a session never ended keeps working.
func TestRevocationsSurviveARestart(t *testing.T) {
	forEachUserBackend(t, func(t *testing.T, newDSN func(*testing.T) string) {
		dsn := newDSN(t)
		a := newUserAPI(t, dsn)
		admin := a.adminToken(t)
		ends := []struct {
			name string
			end  func(t *testing.T, id int64, email string, p pair)
		}{
			{"a logout", func(t *testing.T, _ int64, _ string, p pair) {
				a.send(t, req{method: http.MethodPost, path: "/api/auth/logout", body: map[string]string{"refresh_token": p.RefreshToken}}).
					wantStatus(t, http.StatusNoContent)
			}},
			{"a reused refresh token", func(t *testing.T, _ int64, _ string, p pair) {
				refresh := req{method: http.MethodPost, path: "/api/auth/refresh",
					body: url.Values{"grant_type": {"refresh_token"}, "refresh_token": {p.RefreshToken}}}
				a.send(t, refresh).wantStatus(t, http.StatusOK)
				a.send(t, refresh).wantProblem(t, http.StatusUnauthorized)
			}},
			{"a password change", func(t *testing.T, _ int64, _ string, p pair) {
				a.send(t, req{method: http.MethodPut, path: "/api/users/me/password", token: p.AccessToken,
					body: map[string]any{"current_password": "member-pass-1234", "new_password": "changed-pass-5678"}}).
					wantStatus(t, http.StatusNoContent)
			}},
			{"a role change by an admin", func(t *testing.T, id int64, email string, _ pair) {
				a.send(t, req{method: http.MethodPut, path: "/api/users/" + itoa(id), token: admin,
					body: map[string]any{"email": email, "name": "Member", "role": "guest", "active": true}}).
					wantUser(t, http.StatusOK)
			}},
		}
		ended := make([]string, len(ends))
		for i, e := range ends {
			email := "ended" + itoa(int64(i)) + "@example.com"
			id, _ := a.memberToken(t, email)
			p := a.loginPair(t, email, "member-pass-1234")
			e.end(t, id, email, p)
			a.send(t, req{method: http.MethodGet, path: "/api/users/me", token: p.AccessToken}).wantProblem(t, http.StatusUnauthorized)
			ended[i] = p.AccessToken
		}
		_, kept := a.memberToken(t, "kept@example.com")

		restarted := newUserAPI(t, dsn)
		for i, e := range ends {
			t.Run("the token of a session ended by "+e.name+" is refused", func(t *testing.T) {
				restarted.send(t, req{method: http.MethodGet, path: "/api/users/me", token: ended[i]}).wantProblem(t, http.StatusUnauthorized)
			})
		}
		t.Run("the token of a session never ended works", func(t *testing.T) {
			restarted.send(t, req{method: http.MethodGet, path: "/api/users/me", token: kept}).wantStatus(t, http.StatusOK)
		})
	})
}

// secretKeys are the HS256 keys of secret.
func secretKeys(t *testing.T, secret []byte) *token.Keys {
	t.Helper()
	keys, err := token.NewSecret(secret)
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// endOn ends the session of the access token on the instance s, as its
// user's logout of that session does.
func endOn(t *testing.T, s *sessions.Service, access string) error {
	t.Helper()
	user, err := strconv.ParseInt(jwtClaimsOf(t, access).Subject, 10, 64)
	if err != nil {
		t.Fatalf("subject of %q: %v", access, err)
	}
	return s.EndOwn(t.Context(), user, sessionIDOf(t, access))
}
