package integration

import (
	"net/http"
	"slices"
	"testing"

	"github.com/asapjs/fiber-template/platform/paging"
	"github.com/asapjs/fiber-template/platform/servicetest"
)

// TestSessionLinksWalkTheList follows rel="next" through a user's
// sessions, a list paged by index that issues no cursor: every session
// comes once and the links end.
func TestSessionLinksWalkTheList(t *testing.T) {
	forEachUserBackend(t, func(t *testing.T, newDSN func(*testing.T) string) {
		a := newUserAPI(t, newDSN(t))
		const email, password, logins = "walker@example.com", "walker-pass-1234", 7
		a.signUp(t, map[string]any{"email": email, "name": "Walker", "password": password})
		var token string
		for range logins {
			token = a.login(t, email, password)
		}
		var seen []string
		path := "/api/auth/sessions?limit=3"
		for pages := 1; path != ""; pages++ {
			if pages > logins {
				t.Fatalf("the next links do not end: sessions %v", seen)
			}
			res := a.send(t, req{method: http.MethodGet, path: path, token: token})
			var page paging.Page[sessionJSON]
			res.decode(t, http.StatusOK, &page)
			for _, s := range page.Data {
				seen = append(seen, s.ID)
			}
			rel := servicetest.Links(res.header.Get("Link"))
			if page.HasNext != (rel["next"] != "") {
				t.Fatalf("%s: has_next %t but Link %q", path, page.HasNext, res.header.Get("Link"))
			}
			path = rel["next"]
		}
		sorted := slices.Clone(seen)
		slices.Sort(sorted)
		if len(seen) != logins || len(slices.Compact(sorted)) != logins {
			t.Fatalf("walked sessions %v, want the %d sessions once each", seen, logins)
		}
	})
}
