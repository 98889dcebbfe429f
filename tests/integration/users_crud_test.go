package integration

import (
	"fmt"
	"net/http"
	"testing"
)

func TestUserCRUD(t *testing.T) {
	forEachUserBackend(t, testUserCRUD)
}

func testUserCRUD(t *testing.T, newDSN func(*testing.T) string) {
	a := newUserAPI(t, newDSN(t))
	token := a.newUserToken(t, "operator@example.com")
	const password = "difference-engine-1"
	linus := a.signUp(t, map[string]any{"email": "linus@example.com", "name": "Linus", "password": password})
	other := a.signUp(t, map[string]any{"email": "other@example.com", "name": "Other", "password": password})
	userPath := func(id any) string { return fmt.Sprintf("/api/users/%v", id) }

	t.Run("GET of a user answers 200 with the user", func(t *testing.T) {
		got := a.send(t, req{method: http.MethodGet, path: userPath(linus.ID), token: token}).wantUser(t, http.StatusOK)
		if got != linus {
			t.Errorf("got %+v, want %+v", got, linus)
		}
	})

	t.Run("PUT replaces email, name, role and active flag and answers 200 with the user", func(t *testing.T) {
		got := a.send(t, req{method: http.MethodPut, path: userPath(linus.ID), token: token,
			body: map[string]any{"email": "Linus.T@Example.com", "name": "Linus T", "role": "admin", "active": false}}).
			wantUser(t, http.StatusOK)
		want := linus
		want.Email, want.Name, want.Role, want.Active = "linus.t@example.com", "Linus T", "admin", false
		if got != want {
			t.Errorf("got %+v, want %+v", got, want)
		}
		if read := a.send(t, req{method: http.MethodGet, path: userPath(linus.ID), token: token}).wantUser(t, http.StatusOK); read != want {
			t.Errorf("read back %+v, want %+v", read, want)
		}
		// Inactive now, so the login is refused; active again, it works.
		a.send(t, req{method: http.MethodPost, path: "/api/auth/login", body: map[string]string{"username": "linus.t@example.com", "password": password}}).
			wantCode(t, http.StatusUnauthorized, "invalid_credentials")
		a.send(t, req{method: http.MethodPut, path: userPath(linus.ID), token: token,
			body: map[string]any{"email": "linus.t@example.com", "name": "Linus T", "role": "admin", "active": true}}).
			wantUser(t, http.StatusOK)
		a.login(t, "linus.t@example.com", password)
	})

	t.Run("PUT keeping the user's own email answers 200", func(t *testing.T) {
		a.send(t, req{method: http.MethodPut, path: userPath(other.ID), token: token,
			body: map[string]any{"email": "OTHER@example.com", "name": "Other Renamed", "role": "guest", "active": true}}).
			wantUser(t, http.StatusOK)
	})

	t.Run("PUT with another user's email, in any case, answers 409", func(t *testing.T) {
		for _, email := range []string{"linus.t@example.com", "LINUS.T@EXAMPLE.COM"} {
			a.send(t, req{method: http.MethodPut, path: userPath(other.ID), token: token,
				body: map[string]any{"email": email, "name": "Other", "role": "guest", "active": true}}).
				wantCode(t, http.StatusConflict, "email_taken")
		}
		if got := a.send(t, req{method: http.MethodGet, path: userPath(other.ID), token: token}).wantUser(t, http.StatusOK); got.Email != "other@example.com" {
			t.Errorf("after the refused update the email is %q, want other@example.com", got.Email)
		}
	})

	invalid := []struct {
		name   string
		body   map[string]any
		fields []string
	}{
		{"no active flag", map[string]any{"email": "x@example.com", "name": "X", "role": "guest"}, []string{"active"}},
		{"no role", map[string]any{"email": "x@example.com", "name": "X", "active": true}, []string{"role"}},
		{"an unknown role", map[string]any{"email": "x@example.com", "name": "X", "role": "owner", "active": true}, []string{"role"}},
		{"an email that is not one", map[string]any{"email": "x", "name": "X", "role": "guest", "active": true}, []string{"email"}},
		{"nothing", map[string]any{}, []string{"email", "name", "role", "active"}},
	}
	for _, tt := range invalid {
		t.Run("PUT with "+tt.name+" answers 422 naming the fields", func(t *testing.T) {
			a.send(t, req{method: http.MethodPut, path: userPath(other.ID), token: token, body: tt.body}).
				wantFields(t, http.StatusUnprocessableEntity, tt.fields...)
		})
	}

	update := map[string]any{"email": "ghost@example.com", "name": "Ghost", "role": "guest", "active": true}
	unknown := []struct {
		name string
		id   any
	}{
		{"an id no user has", 987654},
		{"id 0", 0},
		{"a negative id", -1},
	}
	for _, tt := range unknown {
		for _, method := range []string{http.MethodGet, http.MethodPut, http.MethodDelete} {
			t.Run(method+" of "+tt.name+" answers 404 user_not_found", func(t *testing.T) {
				var body any
				if method == http.MethodPut {
					body = update
				}
				a.send(t, req{method: method, path: userPath(tt.id), token: token, body: body}).
					wantCode(t, http.StatusNotFound, "user_not_found")
			})
		}
	}

	malformed := []struct {
		name string
		id   string
	}{
		{"a word", "abc"},
		{"a decimal", "1.5"},
		{"a number beyond int64", "99999999999999999999"},
		{"hexadecimal", "0x10"},
	}
	for _, tt := range malformed {
		for _, method := range []string{http.MethodGet, http.MethodPut, http.MethodDelete} {
			t.Run(method+" of "+tt.name+" as id answers a 400 problem naming id", func(t *testing.T) {
				var body any
				if method == http.MethodPut {
					body = update
				}
				a.send(t, req{method: method, path: userPath(tt.id), token: token, body: body}).
					wantFields(t, http.StatusBadRequest, "id")
			})
		}
	}

	t.Run("DELETE answers 204 without a body, and the user is gone", func(t *testing.T) {
		res := a.send(t, req{method: http.MethodDelete, path: userPath(other.ID), token: token})
		res.wantStatus(t, http.StatusNoContent)
		if len(res.body) != 0 {
			t.Errorf("204 with body %q", res.body)
		}
		a.send(t, req{method: http.MethodGet, path: userPath(other.ID), token: token}).wantCode(t, http.StatusNotFound, "user_not_found")
		a.send(t, req{method: http.MethodDelete, path: userPath(other.ID), token: token}).wantCode(t, http.StatusNotFound, "user_not_found")
		a.send(t, req{method: http.MethodPost, path: "/api/auth/login", body: map[string]string{"username": "other@example.com", "password": password}}).
			wantCode(t, http.StatusUnauthorized, "invalid_credentials")
	})

	t.Run("the email of a deleted user can sign up again", func(t *testing.T) {
		again := a.signUp(t, map[string]any{"email": "other@example.com", "name": "Other Again", "password": password})
		if again.ID == other.ID {
			t.Errorf("the new user reuses the deleted id %d", other.ID)
		}
	})
}
