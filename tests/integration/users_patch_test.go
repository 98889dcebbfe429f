package integration

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
)

// mergePatch is the media type of a PATCH body.
const mergePatch = "application/merge-patch+json"

func TestUserPatch(t *testing.T) {
	forEachUserBackend(t, testUserPatch)
}

func testUserPatch(t *testing.T, newDSN func(*testing.T) string) {
	a := newUserAPI(t, newDSN(t))
	admin := a.adminToken(t)
	ada := a.signUp(t, map[string]any{"email": "ada@example.com", "name": "Ada", "password": "analytical-engine-1"})
	self := a.login(t, "ada@example.com", "analytical-engine-1")
	path := fmt.Sprintf("/api/users/%d", ada.ID)
	patch := func(t *testing.T, token string, body any, header map[string]string) response {
		t.Helper()
		return a.send(t, req{method: http.MethodPatch, path: path, token: token, body: body, contentType: mergePatch, header: header})
	}
	current := func(t *testing.T) (userJSON, string) {
		t.Helper()
		res := a.send(t, req{method: http.MethodGet, path: path, token: admin})
		return res.wantUser(t, http.StatusOK), res.header.Get("ETag")
	}

	t.Run("a patch of one member leaves the others as they were", func(t *testing.T) {
		before, tag := current(t)
		res := patch(t, self, map[string]any{"name": "Ada Lovelace"}, nil)
		got := res.wantUser(t, http.StatusOK)
		want := before
		want.Name = "Ada Lovelace"
		if got != want {
			t.Fatalf("after the patch: %+v, want %+v", got, want)
		}
		if res.header.Get("ETag") == tag || res.header.Get("ETag") == "" {
			t.Errorf("ETag %q after the patch, want a new one (was %s)", res.header.Get("ETag"), tag)
		}
		if read, _ := current(t); read != want {
			t.Errorf("read back: %+v, want %+v", read, want)
		}
	})

	t.Run("refused patches change nothing", func(t *testing.T) {
		before, tag := current(t)
		cases := []struct {
			name   string
			token  string
			body   any
			status int
			fields []string
		}{
			{"null on a member that is not nullable", self, map[string]any{"name": nil}, http.StatusUnprocessableEntity, []string{"name"}},
			{"null and a bad value together", self, map[string]any{"active": nil, "role": "owner"}, http.StatusUnprocessableEntity, []string{"active", "role"}},
			{"a result that breaks the PUT rules", self, map[string]any{"email": "not-an-email", "name": ""}, http.StatusUnprocessableEntity, []string{"email", "name"}},
			{"a member a user does not have", self, map[string]any{"nickname": "A"}, http.StatusBadRequest, []string{"nickname"}},
			{"a value of the wrong type", self, map[string]any{"active": "yes"}, http.StatusBadRequest, []string{"active"}},
			{"a patch that is not an object", self, []any{"name"}, http.StatusBadRequest, []string{"body"}},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				patch(t, tc.token, tc.body, nil).wantFields(t, tc.status, tc.fields...)
			})
		}
		patch(t, self, map[string]any{"role": "admin"}, nil).wantCode(t, http.StatusForbidden, "forbidden")
		if after, afterTag := current(t); after != before || afterTag != tag {
			t.Fatalf("after refused patches: %+v %s, want %+v %s", after, afterTag, before, tag)
		}
	})

	t.Run("a patch or an update that changes nothing keeps the version", func(t *testing.T) {
		before, tag := current(t)
		unchanged := map[string]any{"email": before.Email, "name": before.Name, "role": before.Role, "active": before.Active}
		for _, res := range []response{
			patch(t, self, map[string]any{}, nil),
			patch(t, self, map[string]any{"name": before.Name}, map[string]string{"If-Match": tag}),
			a.send(t, req{method: http.MethodPut, path: path, token: self, body: unchanged}),
		} {
			if got := res.wantUser(t, http.StatusOK); got != before || res.header.Get("ETag") != tag {
				t.Errorf("%+v with ETag %q, want %+v with %s kept", got, res.header.Get("ETag"), before, tag)
			}
		}
		patch(t, self, map[string]any{}, map[string]string{"If-Match": `"999999"`}).wantCode(t, http.StatusPreconditionFailed, "precondition_failed")
		if _, after := current(t); after != tag {
			t.Errorf("ETag %s after writes that change nothing, want %s", after, tag)
		}
	})

	t.Run("a patch is only merge-patch+json, and the 415 says so", func(t *testing.T) {
		res := a.send(t, req{method: http.MethodPatch, path: path, token: self, body: map[string]any{"name": "X"}})
		res.wantProblem(t, http.StatusUnsupportedMediaType)
		if got := res.header.Get("Accept-Patch"); got != mergePatch {
			t.Errorf("Accept-Patch %q, want %s", got, mergePatch)
		}
	})

	t.Run("If-Match: the tag read applies, a stale one is a 412 with the current tag", func(t *testing.T) {
		_, tag := current(t)
		res := patch(t, admin, map[string]any{"active": false}, map[string]string{"If-Match": tag})
		if got := res.wantUser(t, http.StatusOK); got.Active || got.Name != "Ada Lovelace" {
			t.Fatalf("after deactivating: %+v", got)
		}
		next := res.header.Get("ETag")
		res = patch(t, admin, map[string]any{"name": "Lost"}, map[string]string{"If-Match": tag})
		res.wantCode(t, http.StatusPreconditionFailed, "precondition_failed")
		if res.header.Get("ETag") != next {
			t.Errorf("412 with ETag %q, want %s", res.header.Get("ETag"), next)
		}
		patch(t, admin, map[string]any{"active": true}, map[string]string{"If-Match": next}).wantStatus(t, http.StatusOK)
	})

	t.Run("concurrent patches of different members are all kept", func(t *testing.T) {
		for round := range 5 {
			name, active := fmt.Sprintf("Ada %d", round), round%2 == 0
			var wg sync.WaitGroup
			statuses := make([]int, 2)
			for i, body := range []map[string]any{{"name": name}, {"active": active}} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					res, err := a.do(t, req{method: http.MethodPatch, path: path, token: admin, body: body, contentType: mergePatch})
					if err == nil {
						statuses[i] = res.status
					}
				}()
			}
			wg.Wait()
			got, _ := current(t)
			if statuses[0] != http.StatusOK || statuses[1] != http.StatusOK || got.Name != name || got.Active != active {
				t.Fatalf("round %d: statuses %v, user %+v; want both 200, name %q and active %v", round, statuses, got, name, active)
			}
		}
	})
}
