package integration

import (
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/asapjs/fiber-template/app"
	"github.com/asapjs/fiber-template/app/models"
	"github.com/asapjs/fiber-template/platform/router"
	"github.com/asapjs/fiber-template/tests/integration/pgtest"
)

// pair is a login's or a refresh's token response.
type pair struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int64  `json:"expires_in"`
	RefreshToken string `json:"refresh_token"`
}

// loginPair logs in and returns the whole token response.
func (a *userAPI) loginPair(t *testing.T, email, password string) pair {
	t.Helper()
	var p pair
	a.send(t, req{method: http.MethodPost, path: "/api/auth/login",
		body: map[string]string{"username": email, "password": password}}).decode(t, http.StatusOK, &p)
	return p
}

// memberToken signs up a member and returns its id and access token.
func (a *userAPI) memberToken(t *testing.T, email string) (int64, string) {
	t.Helper()
	const password = "member-pass-1234"
	u := a.signUp(t, map[string]any{"email": email, "name": "Member", "password": password})
	return u.ID, a.login(t, email, password)
}

// sessionIDOf returns the session of an access token, its sid claim, read
// without verifying the token.
func sessionIDOf(t *testing.T, access string) string {
	t.Helper()
	c := jwtClaimsOf(t, access)
	if c.SessionID == "" {
		t.Fatalf("access token %q has no sid", access)
	}
	return c.SessionID
}

// jwtClaimsOf reads the claims of an access token without verifying it.
func jwtClaimsOf(t *testing.T, access string) *router.Claims {
	t.Helper()
	var c router.Claims
	if _, _, err := jwt.NewParser().ParseUnverified(access, &c); err != nil {
		t.Fatalf("read access token %q: %v", access, err)
	}
	return &c
}

func TestSignUpCannotEscalate(t *testing.T) {
	forEachUserBackend(t, func(t *testing.T, newDSN func(*testing.T) string) {
		a := newUserAPI(t, newDSN(t))
		_, member := a.memberToken(t, "m@example.com")
		body := func(extra string) []byte {
			return []byte(`{"email":"x@example.com","name":"X","password":"x-password-1"` + extra + `}`)
		}
		cases := []struct {
			name, token, extra string
			status             int
		}{
			{"an anonymous sign-up asking for admin is a 403", "", `,"role":"admin"`, http.StatusForbidden},
			{"an anonymous sign-up asking for guest is a 403", "", `,"role":"guest"`, http.StatusForbidden},
			{"an anonymous inactive sign-up is a 403", "", `,"active":false`, http.StatusForbidden},
			{"a member creating an admin is a 403", member, `,"role":"admin"`, http.StatusForbidden},
			{"ROLE in capitals is an unknown member, a 400", "", `,"ROLE":"admin"`, http.StatusBadRequest},
			{"a duplicated role is a 400", "", `,"role":"member","role":"admin"`, http.StatusBadRequest},
			{"an unknown is_admin is a 400", "", `,"is_admin":true`, http.StatusBadRequest},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				a.send(t, req{method: http.MethodPost, path: "/api/users", token: c.token, body: body(c.extra), contentType: "application/json"}).wantProblem(t, c.status)
			})
		}
		t.Run("an anonymous sign-up is an active member", func(t *testing.T) {
			u := a.signUp(t, map[string]any{"email": "plain@example.com", "name": "P", "password": "plain-pass-1"})
			if u.Role != "member" || !u.Active {
				t.Errorf("got role %q active %v, want an active member", u.Role, u.Active)
			}
		})
		t.Run("an admin creates an inactive admin", func(t *testing.T) {
			u := a.send(t, req{method: http.MethodPost, path: "/api/users", token: a.adminToken(t),
				body: body(`,"role":"admin","active":false`), contentType: "application/json"}).wantUser(t, http.StatusCreated)
			if u.Role != "admin" || u.Active {
				t.Errorf("got role %q active %v, want an inactive admin", u.Role, u.Active)
			}
		})
	})
}

func TestOwnershipAndRoles(t *testing.T) {
	forEachUserBackend(t, func(t *testing.T, newDSN func(*testing.T) string) {
		a := newUserAPI(t, newDSN(t))
		id, member := a.memberToken(t, "owner@example.com")
		otherID, _ := a.memberToken(t, "other@example.com")
		admin := a.adminToken(t)
		var adminID int64
		t.Run("a member may not list users, an admin may", func(t *testing.T) {
			a.send(t, req{method: http.MethodGet, path: "/api/users", token: member}).wantProblem(t, http.StatusForbidden)
			a.send(t, req{method: http.MethodGet, path: "/api/users", token: admin}).wantStatus(t, http.StatusOK)
		})
		t.Run("users/me is the caller", func(t *testing.T) {
			if u := a.send(t, req{method: http.MethodGet, path: "/api/users/me", token: member}).wantUser(t, http.StatusOK); u.ID != id {
				t.Errorf("me is %d, want %d", u.ID, id)
			}
			adminID = a.send(t, req{method: http.MethodGet, path: "/api/users/me", token: admin}).wantUser(t, http.StatusOK).ID
		})
		other := "/api/users/" + itoa(otherID)
		own := "/api/users/" + itoa(id)
		t.Run("a member may not read, change or delete another user", func(t *testing.T) {
			a.send(t, req{method: http.MethodGet, path: other, token: member}).wantProblem(t, http.StatusForbidden)
			a.send(t, req{method: http.MethodPut, path: other, token: member,
				body: map[string]any{"email": "other@example.com", "name": "Hacked", "role": "member", "active": true}}).wantProblem(t, http.StatusForbidden)
			a.send(t, req{method: http.MethodDelete, path: other, token: member}).wantProblem(t, http.StatusForbidden)
		})
		t.Run("a member changes its own name but not its role or active flag", func(t *testing.T) {
			a.send(t, req{method: http.MethodPut, path: own, token: member,
				body: map[string]any{"email": "owner@example.com", "name": "Renamed", "role": "member", "active": true}}).wantUser(t, http.StatusOK)
			a.send(t, req{method: http.MethodPut, path: own, token: member,
				body: map[string]any{"email": "owner@example.com", "name": "Renamed", "role": "admin", "active": true}}).wantProblem(t, http.StatusForbidden)
			a.send(t, req{method: http.MethodPut, path: own, token: member,
				body: map[string]any{"email": "owner@example.com", "name": "Renamed", "role": "member", "active": false}}).wantProblem(t, http.StatusForbidden)
			if u := a.send(t, req{method: http.MethodGet, path: own, token: member}).wantUser(t, http.StatusOK); !u.Active || u.Role != "member" {
				t.Errorf("after the refused updates the member is %+v, want an active member", u)
			}
			a.send(t, req{method: http.MethodPut, path: own, token: member,
				body: []byte(`{"email":"owner@example.com","name":"R","role":"member","active":true,"ROLE":"admin"}`), contentType: "application/json"}).wantProblem(t, http.StatusBadRequest)
		})
		t.Run("the last active admin cannot be demoted, deactivated or deleted", func(t *testing.T) {
			self := "/api/users/" + itoa(adminID)
			for _, body := range []map[string]any{
				{"email": testAdminEmail, "name": "Root", "role": "member", "active": true},
				{"email": testAdminEmail, "name": "Root", "role": "admin", "active": false},
			} {
				a.send(t, req{method: http.MethodPut, path: self, token: admin, body: body}).wantProblem(t, http.StatusConflict)
			}
			a.send(t, req{method: http.MethodDelete, path: self, token: admin}).wantProblem(t, http.StatusConflict)
		})
		t.Run("a password change needs the current password, then ends the sessions", func(t *testing.T) {
			a.send(t, req{method: http.MethodPut, path: "/api/users/me/password", token: member,
				body: map[string]any{"current_password": "wrong-pass-000", "new_password": "new-pass-5678"}}).wantProblem(t, http.StatusUnprocessableEntity)
			a.send(t, req{method: http.MethodPut, path: "/api/users/me/password", token: member,
				body: map[string]any{"current_password": "member-pass-1234", "new_password": "new-pass-5678"}}).wantStatus(t, http.StatusNoContent)
			a.send(t, req{method: http.MethodGet, path: "/api/users/me", token: member}).wantProblem(t, http.StatusUnauthorized)
			a.login(t, "owner@example.com", "new-pass-5678")
		})
		t.Run("an admin's role change ends the member's sessions", func(t *testing.T) {
			token := a.login(t, "owner@example.com", "new-pass-5678")
			a.send(t, req{method: http.MethodPut, path: own, token: admin,
				body: map[string]any{"email": "owner@example.com", "name": "R", "role": "guest", "active": true}}).wantUser(t, http.StatusOK)
			a.send(t, req{method: http.MethodGet, path: "/api/users/me", token: token}).wantProblem(t, http.StatusUnauthorized)
		})
		t.Run("an admin deactivates a member, which ends its sessions and logins, and reactivates it", func(t *testing.T) {
			token := a.login(t, "owner@example.com", "new-pass-5678")
			u := a.send(t, req{method: http.MethodPut, path: own, token: admin,
				body: map[string]any{"email": "owner@example.com", "name": "R", "role": "guest", "active": false}}).wantUser(t, http.StatusOK)
			if u.Active {
				t.Errorf("after the deactivation the member is %+v", u)
			}
			a.send(t, req{method: http.MethodGet, path: "/api/users/me", token: token}).wantProblem(t, http.StatusUnauthorized)
			a.send(t, req{method: http.MethodPost, path: "/api/auth/login",
				body: map[string]string{"username": "owner@example.com", "password": "new-pass-5678"}}).wantProblem(t, http.StatusUnauthorized)
			a.send(t, req{method: http.MethodPut, path: own, token: admin,
				body: map[string]any{"email": "owner@example.com", "name": "R", "role": "guest", "active": true}}).wantUser(t, http.StatusOK)
			a.login(t, "owner@example.com", "new-pass-5678")
		})
	})
}

func TestSessions(t *testing.T) {
	forEachUserBackend(t, func(t *testing.T, newDSN func(*testing.T) string) {
		a := newUserAPI(t, newDSN(t))
		a.memberToken(t, "s@example.com")
		first := a.loginPair(t, "s@example.com", "member-pass-1234")
		t.Run("the access token carries sub, sid, iat, exp, iss, aud and role", func(t *testing.T) {
			claims := jwt.MapClaims{}
			if _, _, err := jwt.NewParser().ParseUnverified(first.AccessToken, claims); err != nil {
				t.Fatal(err)
			}
			for _, k := range []string{"sub", "sid", "iat", "exp", "iss", "aud", "role"} {
				if claims[k] == nil {
					t.Errorf("claim %s missing from %v", k, claims)
				}
			}
			if first.RefreshToken == "" || first.TokenType != "bearer" || first.ExpiresIn != 900 {
				t.Errorf("token response %+v", first)
			}
		})
		refresh := func(token string) response {
			return a.send(t, req{method: http.MethodPost, path: "/api/auth/refresh",
				body: url.Values{"grant_type": {"refresh_token"}, "refresh_token": {token}}})
		}
		var second pair
		t.Run("a refresh rotates: the new pair works, the old refresh token is refused", func(t *testing.T) {
			refresh(first.RefreshToken).decode(t, http.StatusOK, &second)
			a.send(t, req{method: http.MethodGet, path: "/api/users/me", token: second.AccessToken}).wantStatus(t, http.StatusOK)
		})
		t.Run("reusing a rotated refresh token is a 401 and ends the whole session", func(t *testing.T) {
			refresh(first.RefreshToken).wantProblem(t, http.StatusUnauthorized)
			refresh(second.RefreshToken).wantProblem(t, http.StatusUnauthorized)
			a.send(t, req{method: http.MethodGet, path: "/api/users/me", token: second.AccessToken}).wantProblem(t, http.StatusUnauthorized)
		})
		t.Run("a refresh token of an expired session is a 401", func(t *testing.T) {
			p := a.loginPair(t, "s@example.com", "member-pass-1234")
			if _, err := a.db.NewUpdate().Model((*models.Session)(nil)).Set("expires_at = ?", time.Now().Add(-time.Minute)).
				Where("id = ?", sessionIDOf(t, p.AccessToken)).Exec(t.Context()); err != nil {
				t.Fatalf("expire the session: %v", err)
			}
			refresh(p.RefreshToken).wantProblem(t, http.StatusUnauthorized)
		})
		t.Run("a logout is a 204 and ends the session's tokens", func(t *testing.T) {
			p := a.loginPair(t, "s@example.com", "member-pass-1234")
			a.send(t, req{method: http.MethodGet, path: "/api/users/me", token: p.AccessToken}).wantStatus(t, http.StatusOK)
			a.send(t, req{method: http.MethodPost, path: "/api/auth/logout", body: map[string]string{"refresh_token": p.RefreshToken}}).wantStatus(t, http.StatusNoContent)
			a.send(t, req{method: http.MethodGet, path: "/api/users/me", token: p.AccessToken}).wantProblem(t, http.StatusUnauthorized)
			refresh(p.RefreshToken).wantProblem(t, http.StatusUnauthorized)
		})
		t.Run("a deleted user's token is refused", func(t *testing.T) {
			id, token := a.memberToken(t, "gone@example.com")
			a.send(t, req{method: http.MethodDelete, path: "/api/users/" + itoa(id), token: token}).wantStatus(t, http.StatusNoContent)
			a.send(t, req{method: http.MethodGet, path: "/api/users/me", token: token}).wantProblem(t, http.StatusUnauthorized)
		})
		t.Run("every response carries the security headers and authenticated ones no-store", func(t *testing.T) {
			token := a.login(t, "s@example.com", "member-pass-1234")
			secure := map[string]string{
				"X-Content-Type-Options":  "nosniff",
				"X-Frame-Options":         "DENY",
				"Content-Security-Policy": "frame-ancestors 'none'",
				"Referrer-Policy":         "no-referrer",
			}
			answers := map[string]response{
				"an answer":   a.send(t, req{method: http.MethodGet, path: "/api/users/me", token: token}),
				"a 404":       a.send(t, req{method: http.MethodGet, path: "/api/nowhere"}),
				"a 401":       a.send(t, req{method: http.MethodGet, path: "/api/users/me"}),
				"a 400 input": a.send(t, req{method: http.MethodGet, path: "/api/users/x", token: token}),
			}
			if got := answers["an answer"].header.Get("Cache-Control"); got != "no-store" {
				t.Errorf("an authenticated answer has Cache-Control %q", got)
			}
			for name, res := range answers {
				for header, want := range secure {
					if got := res.header.Get(header); got != want {
						t.Errorf("%s: %s = %q, want %q", name, header, got, want)
					}
				}
			}
		})
	})
}

func TestLoginThrottle(t *testing.T) {
	forEachUserBackend(t, func(t *testing.T, newDSN func(*testing.T) string) {
		a := newUserAPI(t, newDSN(t))
		a.memberToken(t, "t@example.com")
		wrong := req{method: http.MethodPost, path: "/api/auth/login", body: map[string]string{"username": "t@example.com", "password": "wrong-pass-99"}}
		for range 5 {
			a.send(t, wrong).wantProblem(t, http.StatusUnauthorized)
		}
		t.Run("the 6th attempt is a 429 until the window forgets the 1st failure, even with the right password", func(t *testing.T) {
			// The failures were a moment ago: the wait is nearly the whole
			// 15-minute window, not a retry in seconds.
			a.send(t, req{method: http.MethodPost, path: "/api/auth/login", body: map[string]string{"username": "t@example.com", "password": "member-pass-1234"}}).
				wantRetryAfter(t, 14*time.Minute, 15*time.Minute)
		})
		t.Run("while logins are still being checked, the wait is for them to end", func(t *testing.T) {
			a.memberToken(t, "t4@example.com")
			wrong := req{method: http.MethodPost, path: "/api/auth/login", body: map[string]string{"username": "t4@example.com", "password": "wrong-pass-99"}}
			for range 5 {
				a.send(t, wrong).wantProblem(t, http.StatusUnauthorized)
			}
			// As if the five had just begun on another instance and their
			// passwords were still being checked: one may succeed, which
			// forgets the failures, and no check outlives its request.
			if _, err := a.db.NewUpdate().Model((*models.LoginFailure)(nil)).Set("pending = ?", true).Set("failed_at = ?", time.Now()).
				Where("email = ?", "t4@example.com").Exec(t.Context()); err != nil {
				t.Fatal(err)
			}
			a.send(t, wrong).wantRetryAfter(t, time.Second, router.DefaultRequestTimeout)
		})
		t.Run("another account from the same address is not throttled", func(t *testing.T) {
			a.memberToken(t, "t2@example.com")
		})
		t.Run("guesses sent at once count against each other", func(t *testing.T) {
			a.memberToken(t, "t3@example.com")
			const guesses = 16
			answers := make(chan response, guesses)
			var wg sync.WaitGroup
			for range guesses {
				wg.Go(func() {
					res, err := a.do(t, req{method: http.MethodPost, path: "/api/auth/login", body: map[string]string{"username": "t3@example.com", "password": "wrong-pass-99"}})
					if err != nil {
						t.Error(err)
						return
					}
					answers <- res
				})
			}
			wg.Wait()
			close(answers)
			count := map[int]int{}
			for res := range answers {
				count[res.status]++
				if res.status != http.StatusTooManyRequests {
					continue
				}
				// Refused while the checked ones were in flight, the wait
				// is for them: the request timeout from when the last began,
				// which may be a moment after the refused one did. After
				// they failed, the wait is for the window.
				wait, _ := strconv.Atoi(res.header.Get("Retry-After"))
				inFlight := wait >= 1 && time.Duration(wait)*time.Second <= router.DefaultRequestTimeout+5*time.Second
				window := time.Duration(wait)*time.Second >= 14*time.Minute && time.Duration(wait)*time.Second <= 15*time.Minute
				if !inFlight && !window {
					t.Errorf("a refusal's Retry-After %q is neither for logins in flight (about %s) nor for the 15-minute window",
						res.header.Get("Retry-After"), router.DefaultRequestTimeout)
				}
			}
			checked := count[http.StatusUnauthorized]
			if checked < 1 || checked > 5 || checked+count[http.StatusTooManyRequests]+count[http.StatusServiceUnavailable] != guesses {
				t.Fatalf("answers %v: want at most 5 passwords checked (401), the rest refused (429, or 503 when busy)", count)
			}
		})
	})
}

func TestAuthRateLimit(t *testing.T) {
	forEachUserBackend(t, func(t *testing.T, newDSN func(*testing.T) string) {
		a := newUserAPIWith(t, newDSN(t), app.Options{AuthRateLimit: 3})
		login := req{method: http.MethodPost, path: "/api/auth/login", body: map[string]string{"username": "nobody@example.com", "password": "nobody-pass"}}
		for range 3 {
			res := a.send(t, login)
			res.wantProblem(t, http.StatusUnauthorized)
			if res.header.Get("RateLimit-Limit") != "3" || res.header.Get("RateLimit-Remaining") == "" || res.header.Get("RateLimit-Reset") == "" {
				t.Errorf("rate limit headers %v", res.header)
			}
		}
		res := a.send(t, login)
		res.wantProblem(t, http.StatusTooManyRequests)
		if res.header.Get("Retry-After") == "" {
			t.Error("no Retry-After")
		}
		t.Run("other routes are not limited", func(t *testing.T) {
			a.send(t, req{method: http.MethodGet, path: "/api/users/me", token: "x"}).wantProblem(t, http.StatusUnauthorized)
		})
	})
}

func TestRevocationReachesAnotherInstance(t *testing.T) {
	t.Parallel()
	dsn := pgtest.NewDatabase(t)
	a := newUserAPI(t, dsn)
	b := newUserAPI(t, dsn)
	id, token := a.memberToken(t, "twice@example.com")
	a.send(t, req{method: http.MethodPost, path: "/api/auth/login", body: map[string]string{"username": "twice@example.com", "password": "bad-pass-000"}}).wantProblem(t, http.StatusUnauthorized)
	t.Run("the token works on the second instance, which caches it", func(t *testing.T) {
		b.send(t, req{method: http.MethodGet, path: "/api/users/me", token: token}).wantStatus(t, http.StatusOK)
	})
	t.Run("after a delete on the first, the second refuses the token within a second", func(t *testing.T) {
		a.send(t, req{method: http.MethodDelete, path: "/api/users/" + itoa(id), token: a.adminToken(t)}).wantStatus(t, http.StatusNoContent)
		deadline := time.Now().Add(time.Second)
		for {
			res, err := b.do(t, req{method: http.MethodGet, path: "/api/users/me", token: token})
			if err == nil && res.status == http.StatusUnauthorized {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("second instance still answers %d a second after the delete", res.status)
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
	t.Run("failed logins counted on one instance throttle the other", func(t *testing.T) {
		a.memberToken(t, "thr@example.com")
		for range 5 {
			a.send(t, req{method: http.MethodPost, path: "/api/auth/login", body: map[string]string{"username": "thr@example.com", "password": "bad-pass-000"}}).wantProblem(t, http.StatusUnauthorized)
		}
		res := b.send(t, req{method: http.MethodPost, path: "/api/auth/login", body: map[string]string{"username": "thr@example.com", "password": "member-pass-1234"}})
		res.wantProblem(t, http.StatusTooManyRequests)
		if res.header.Get("Retry-After") == "" {
			t.Error("no Retry-After")
		}
	})
}

func TestBootstrapAdminNeverChangesAUser(t *testing.T) {
	forEachUserBackend(t, func(t *testing.T, newDSN func(*testing.T) string) {
		dsn := newDSN(t)
		a := newUserAPI(t, dsn)
		a.adminToken(t)
		b := newUserAPIWith(t, dsn, app.Options{Admin: &app.NewUser{Email: testAdminEmail, Password: "another-pass-99"}})
		b.send(t, req{method: http.MethodPost, path: "/api/auth/login",
			body: map[string]string{"username": testAdminEmail, "password": "another-pass-99"}}).wantProblem(t, http.StatusUnauthorized)
		b.adminToken(t)
	})
}

// itoa formats an id for a path.
func itoa(id int64) string { return strconv.FormatInt(id, 10) }
