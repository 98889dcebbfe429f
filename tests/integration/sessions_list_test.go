package integration

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/asapjs/fiber-template/platform/paging"
	"github.com/asapjs/fiber-template/tests/integration/pgtest"
)

// sessionJSON is a session as GET /auth/sessions lists it.
type sessionJSON struct {
	ID         string    `json:"id"`
	CreatedAt  time.Time `json:"created_at"`
	LastUsedAt time.Time `json:"last_used_at"`
	Address    string    `json:"address"`
	UserAgent  string    `json:"user_agent"`
	Current    bool      `json:"current"`
}

func TestUsersSeeAndEndTheirSessions(t *testing.T) {
	forEachUserBackend(t, testUsersSeeAndEndTheirSessions)
}

func testUsersSeeAndEndTheirSessions(t *testing.T, newDSN func(*testing.T) string) {
	a := newUserAPI(t, newDSN(t))
	const email, password = "sessions@example.com", "sessions-pass-1234"
	user := a.signUp(t, map[string]any{"email": email, "name": "Sessions", "password": password})
	loginAs := func(agent string) pair {
		t.Helper()
		var p pair
		a.send(t, req{method: http.MethodPost, path: "/api/auth/login", header: map[string]string{"User-Agent": agent},
			body: map[string]string{"username": email, "password": password}}).decode(t, http.StatusOK, &p)
		return p
	}
	phone, laptop := loginAs("phone/1.0"), loginAs(strings.Repeat("é", 200))
	sessions := func(t *testing.T, token string) []sessionJSON {
		t.Helper()
		var page paging.Page[sessionJSON]
		a.send(t, req{method: http.MethodGet, path: "/api/auth/sessions", token: token}).decode(t, http.StatusOK, &page)
		return page.Data
	}
	me := func(token string) int {
		return a.send(t, req{method: http.MethodGet, path: "/api/users/me", token: token}).status
	}

	t.Run("the list shows each session, the newest first, and which is current", func(t *testing.T) {
		got := sessions(t, laptop.AccessToken)
		if len(got) != 2 || got[0].ID != sessionIDOf(t, laptop.AccessToken) || got[1].ID != sessionIDOf(t, phone.AccessToken) {
			t.Fatalf("sessions %+v, want the laptop's then the phone's", got)
		}
		if !got[0].Current || got[1].Current || got[1].UserAgent != "phone/1.0" || got[1].Address == "" {
			t.Errorf("sessions %+v: want the laptop's current, the phone's with its User-Agent and address", got)
		}
		if len(got[0].UserAgent) != 256 || !strings.HasPrefix(got[0].UserAgent, "éé") {
			t.Errorf("a 400-byte User-Agent is kept as %d bytes, want its first 256", len(got[0].UserAgent))
		}
		if got[1].LastUsedAt.Before(got[1].CreatedAt) {
			t.Errorf("last used %s before created %s", got[1].LastUsedAt, got[1].CreatedAt)
		}
	})

	t.Run("another user sees none of them and cannot end them", func(t *testing.T) {
		_, other := a.memberToken(t, "other-sessions@example.com")
		if got := sessions(t, other); len(got) != 1 || !got[0].Current {
			t.Errorf("the other user's sessions %+v, want its own one", got)
		}
		a.send(t, req{method: http.MethodDelete, path: "/api/auth/sessions/" + sessionIDOf(t, phone.AccessToken), token: other}).
			wantCode(t, http.StatusNotFound, "session_not_found")
		if me(phone.AccessToken) != http.StatusOK {
			t.Error("the phone's token stopped working when another user tried to end its session")
		}
	})

	t.Run("ending one session stops its tokens, not the others'", func(t *testing.T) {
		id := sessionIDOf(t, phone.AccessToken)
		a.send(t, req{method: http.MethodDelete, path: "/api/auth/sessions/" + id, token: laptop.AccessToken}).wantStatus(t, http.StatusNoContent)
		if me(phone.AccessToken) != http.StatusUnauthorized || me(laptop.AccessToken) != http.StatusOK {
			t.Errorf("after ending the phone's session: phone %d, laptop %d; want 401 and 200", me(phone.AccessToken), me(laptop.AccessToken))
		}
		a.send(t, req{method: http.MethodPost, path: "/api/auth/refresh", body: map[string]string{"refresh_token": phone.RefreshToken}}).
			wantCode(t, http.StatusUnauthorized, "invalid_grant")
		a.send(t, req{method: http.MethodDelete, path: "/api/auth/sessions/" + id, token: laptop.AccessToken}).
			wantCode(t, http.StatusNotFound, "session_not_found")
		if got := sessions(t, laptop.AccessToken); len(got) != 1 || !got[0].Current {
			t.Errorf("sessions after ending one %+v, want the laptop's alone", got)
		}
	})

	t.Run("an admin ends every session of a user; a member may not", func(t *testing.T) {
		path := fmt.Sprintf("/api/users/%d/sessions", user.ID)
		a.send(t, req{method: http.MethodDelete, path: path, token: laptop.AccessToken}).wantCode(t, http.StatusForbidden, "forbidden")
		admin := a.adminToken(t)
		a.send(t, req{method: http.MethodDelete, path: path, token: admin}).wantStatus(t, http.StatusNoContent)
		if me(laptop.AccessToken) != http.StatusUnauthorized {
			t.Error("the laptop's token still works after an admin ended the user's sessions")
		}
		a.send(t, req{method: http.MethodDelete, path: "/api/users/987654/sessions", token: admin}).wantCode(t, http.StatusNotFound, "user_not_found")
		if me(admin) != http.StatusOK {
			t.Error("the admin's own session ended")
		}
	})

	t.Run("the routes need a token", func(t *testing.T) {
		a.send(t, req{method: http.MethodGet, path: "/api/auth/sessions"}).wantCode(t, http.StatusUnauthorized, "unauthorized")
		a.send(t, req{method: http.MethodDelete, path: "/api/auth/sessions/x"}).wantCode(t, http.StatusUnauthorized, "unauthorized")
	})
}

// TestEndedSessionDiesOnEveryInstance ends a session through one process
// of the built binary and uses its token on another, on one PostgreSQL:
// within a second it is refused there too.
func TestEndedSessionDiesOnEveryInstance(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs cmd/api twice; skipped with -short")
	}
	t.Parallel()
	bases := startInstances(t, 2, pgtest.NewDatabase(t), nil)
	const body = `{"email":"moving@example.com","name":"Moving","password":"moving-password-1"}`
	call(t, bases[0], http.MethodPost, "/api/users", "", nil, body).wantStatus(t, http.StatusCreated)
	login := func() string {
		return decodeToken(t, call(t, bases[0], http.MethodPost, "/api/auth/login", "", nil, `{"username":"moving@example.com","password":"moving-password-1"}`))
	}
	stolen, kept := login(), login()
	call(t, bases[1], http.MethodGet, "/api/users/me", stolen, nil, "").wantStatus(t, http.StatusOK)
	call(t, bases[0], http.MethodDelete, "/api/auth/sessions/"+sessionIDOf(t, stolen), kept, nil, "").wantStatus(t, http.StatusNoContent)
	deadline := time.Now().Add(time.Second)
	for call(t, bases[1], http.MethodGet, "/api/users/me", stolen, nil, "").status != http.StatusUnauthorized {
		if time.Now().After(deadline) {
			t.Fatal("the ended session's token still works on the other instance after a second")
		}
		time.Sleep(20 * time.Millisecond)
	}
	call(t, bases[1], http.MethodGet, "/api/users/me", kept, nil, "").wantStatus(t, http.StatusOK)
}
