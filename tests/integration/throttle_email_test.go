package integration

import (
	"net/http"
	"testing"

	"github.com/asapjs/fiber-template/app"
)

// TestEmailChangesShareTheSignUpLimit: a member that changes its own email
// learns whether the new one is taken (409 email_taken), as sign-up tells
// anyone; so the change counts against the auth rate limit of sign-up,
// login and refresh, and over it is a 429 whether the email is taken or
// not. A change that keeps the email, and an admin's change (admins list
// every user anyway), do not count.
func TestEmailChangesShareTheSignUpLimit(t *testing.T) {
	forEachUserBackend(t, func(t *testing.T, newDSN func(*testing.T) string) {
		// Six requests a minute: the admin's login, the sign-up of the
		// taken email, the member's sign-up and login leave two.
		a := newUserAPIWith(t, newDSN(t), app.Options{AuthRateLimit: 6})
		admin := a.adminToken(t)
		a.send(t, req{method: http.MethodPost, path: "/api/users",
			body: map[string]any{"email": "taken@example.com", "name": "Taken", "password": "taken-pass-1234"}}).wantStatus(t, http.StatusCreated)
		id, member := a.memberToken(t, "prober@example.com")
		path := "/api/users/" + itoa(id)
		patch := func(token string, body map[string]any) response {
			return a.send(t, req{method: http.MethodPatch, path: path, token: token, body: body, contentType: mergePatch})
		}
		for left := range 2 {
			res := patch(member, map[string]any{"email": "taken@example.com"})
			res.wantCode(t, http.StatusConflict, "email_taken")
			res.wantRemaining(t, 1-left)
		}
		t.Run("past the limit a taken email is a 429, not a 409", func(t *testing.T) {
			patch(member, map[string]any{"email": "taken@example.com"}).wantLimited(t)
			a.send(t, req{method: http.MethodPut, path: path, token: member,
				body: map[string]any{"email": "taken@example.com", "name": "Member", "role": "member", "active": true}}).wantLimited(t)
		})
		t.Run("and so is a free one", func(t *testing.T) {
			patch(member, map[string]any{"email": "free@example.com"}).wantLimited(t)
		})
		t.Run("a change that keeps the email is not counted", func(t *testing.T) {
			patch(member, map[string]any{"name": "Renamed", "email": "prober@example.com"}).wantStatus(t, http.StatusOK)
		})
		t.Run("an admin's change of a member's email is not counted", func(t *testing.T) {
			patch(admin, map[string]any{"email": "moved@example.com"}).wantStatus(t, http.StatusOK)
			patch(admin, map[string]any{"email": "taken@example.com"}).wantCode(t, http.StatusConflict, "email_taken")
		})
	})
}
