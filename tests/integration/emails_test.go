package integration

import (
	"errors"
	"fmt"
	"net/http"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"github.com/asapjs/fiber-template/app"
	"github.com/asapjs/fiber-template/app/controllers"
)

func TestEmails(t *testing.T) {
	forEachUserBackend(t, testEmails)
}

// testEmails checks that spellings of an email a reader cannot tell apart
// are one account, and that a look-alike mixing scripts is refused.
func testEmails(t *testing.T, newDSN func(*testing.T) string) {
	a := newUserAPI(t, newDSN(t))
	const password = "unicode-folds-2024"
	admin := a.signUp(t, map[string]any{"email": "admin@x.test", "name": "Admin", "password": password})
	if admin.Email != "admin@x.test" {
		t.Fatalf("stored email %q, want admin@x.test", admin.Email)
	}

	t.Run("a sign-up with a fullwidth or upper-case spelling of a taken email answers 409", func(t *testing.T) {
		for _, email := range []string{"ＡＤＭＩＮ@x.test", "ａdmin@x.test", "ADMIN@ｘ.ＴＥＳＴ"} {
			a.send(t, req{method: http.MethodPost, path: "/api/users",
				body: map[string]any{"email": email, "name": "Look-alike", "password": password}}).
				wantCode(t, http.StatusConflict, "email_taken")
		}
	})

	t.Run("a login with another spelling of the email logs the user in", func(t *testing.T) {
		for _, email := range []string{"ａdmin@x.test", "ＡＤＭＩＮ@X.TEST"} {
			a.login(t, email, password)
		}
	})

	t.Run("a sign-up stores the folded form", func(t *testing.T) {
		u := a.signUp(t, map[string]any{"email": "Ｓｔｒａßｅ@Ｘ.test", "name": "Strasse", "password": password})
		if u.Email != "strasse@x.test" {
			t.Errorf("stored email %q, want strasse@x.test", u.Email)
		}
	})

	t.Run("a local part mixing scripts answers 422 naming the email", func(t *testing.T) {
		for _, email := range []string{"аdmin@x.test", "αdmin@x.test"} { // Cyrillic а, Greek α
			a.send(t, req{method: http.MethodPost, path: "/api/users",
				body: map[string]any{"email": email, "name": "Look-alike", "password": password}}).
				wantFields(t, http.StatusUnprocessableEntity, "email")
		}
	})

	t.Run("an update to a look-alike answers 409 or 422", func(t *testing.T) {
		token := a.adminToken(t)
		other := a.signUp(t, map[string]any{"email": "other@x.test", "name": "Other", "password": password})
		path := fmt.Sprintf("/api/users/%d", other.ID)
		a.send(t, req{method: http.MethodPut, path: path, token: token,
			body: map[string]any{"email": "ａdmin@x.test", "name": "Other", "role": "member", "active": true}}).
			wantCode(t, http.StatusConflict, "email_taken")
		a.send(t, req{method: http.MethodPut, path: path, token: token,
			body: map[string]any{"email": "аdmin@x.test", "name": "Other", "role": "member", "active": true}}).
			wantFields(t, http.StatusUnprocessableEntity, "email")
	})

	t.Run("users create normalises the email as a sign-up does", func(t *testing.T) {
		nu := app.NewUser{Email: "ＡＤＭＩＮ@x.test", Name: "Twin", Password: password, Role: "member"}
		if _, err := app.CreateUser(t.Context(), a.db, nu, bcrypt.MinCost); !errors.Is(err, app.ErrUserExists) {
			t.Errorf("CreateUser(%q) = %v, want ErrUserExists", nu.Email, err)
		}
		nu.Email = "аdmin@x.test"
		if _, err := app.CreateUser(t.Context(), a.db, nu, bcrypt.MinCost); !errors.Is(err, controllers.ErrEmailMixedScripts) {
			t.Errorf("CreateUser(%q) = %v, want ErrEmailMixedScripts", nu.Email, err)
		}
	})
}
