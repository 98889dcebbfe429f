package integration

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/asapjs/fiber-template/app"
	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/servicetest"
)

// pagingSeed signs up n users, roles in turn (admin, member, guest), and
// returns their ids by role and a token.
func pagingSeed(t *testing.T, a *userAPI, n int) (map[string][]int64, string) {
	t.Helper()
	roles := []string{"admin", "member", "guest"}
	// The test admin that signs the others up is listed too.
	admin := a.send(t, req{method: http.MethodGet, path: "/api/users/me", token: a.adminToken(t)}).wantUser(t, http.StatusOK)
	ids := map[string][]int64{"admin": {admin.ID}}
	for i := range n {
		role := roles[i%3]
		u := a.signUp(t, map[string]any{"email": fmt.Sprintf("pager%02d@example.com", i), "name": fmt.Sprintf("Pager %02d", i),
			"password": "paging-password-1", "role": role})
		ids[role] = append(ids[role], u.ID)
	}
	return ids, a.login(t, "pager00@example.com", "paging-password-1")
}

// listPage gets one page of users with the query and decodes it.
func (a *userAPI) listPage(t *testing.T, token string, query url.Values) pageJSON {
	t.Helper()
	var p pageJSON
	a.send(t, req{method: http.MethodGet, path: "/api/users?" + query.Encode(), token: token}).decode(t, http.StatusOK, &p)
	return p
}

func TestUserListCursors(t *testing.T) {
	forEachUserBackend(t, testUserListCursors)
}

func testUserListCursors(t *testing.T, newDSN func(*testing.T) string) {
	a := newUserAPI(t, newDSN(t))
	ids, token := pagingSeed(t, a, 30)
	admins := url.Values{"role": {"admin"}, "limit": {"3"}}

	t.Run("following next_cursor walks a filtered list once, users signing up between pages included", func(t *testing.T) {
		want := slices.Clone(ids["admin"])
		var got []int64
		p := a.listPage(t, token, admins)
		for step := 0; ; step++ {
			if p.Page != step || p.PageSize != 3 || p.HasPrev != (step > 0) || p.HasNext != (p.NextCursor != "") {
				t.Fatalf("step %d: envelope page=%d page_size=%d has_prev=%v has_next=%v next_cursor=%q",
					step, p.Page, p.PageSize, p.HasPrev, p.HasNext, p.NextCursor)
			}
			for _, u := range p.Data {
				if u.Role != "admin" {
					t.Errorf("step %d: user %d is a %s", step, u.ID, u.Role)
				}
				got = append(got, u.ID)
			}
			if !p.HasNext {
				break
			}
			if step < 2 {
				for _, role := range []string{"admin", "member"} {
					u := a.signUp(t, map[string]any{"email": fmt.Sprintf("late-%s-%d@example.com", role, step), "name": "Late",
						"password": "paging-password-1", "role": role})
					if role == "admin" {
						want = append(want, u.ID)
					}
				}
			}
			// The cursor brings its own limit and page: the query's are ignored.
			p = a.listPage(t, token, url.Values{"role": {"admin"}, "cursor": {p.NextCursor}, "page": {"7"}})
		}
		if !slices.Equal(got, want) {
			t.Errorf("walked ids %v, want %v: each admin once, in id order", got, want)
		}
	})

	t.Run("the first cursor leads to the same users as page 1", func(t *testing.T) {
		first := a.listPage(t, token, admins)
		byCursor := a.listPage(t, token, url.Values{"role": {"admin"}, "cursor": {first.NextCursor}})
		byOffset := a.listPage(t, token, url.Values{"role": {"admin"}, "limit": {"3"}, "page": {"1"}})
		if byCursor.Page != 1 || fmt.Sprint(userIDs(byCursor)) != fmt.Sprint(userIDs(byOffset)) {
			t.Errorf("by cursor page %d ids %v, by offset page %d ids %v", byCursor.Page, userIDs(byCursor), byOffset.Page, userIDs(byOffset))
		}
	})

	t.Run("the last page has no next_cursor in its JSON", func(t *testing.T) {
		res := a.send(t, req{method: http.MethodGet, path: "/api/users?role=member&limit=100", token: token})
		var raw map[string]json.RawMessage
		res.decode(t, http.StatusOK, &raw)
		if _, ok := raw["next_cursor"]; ok || string(raw["has_next"]) != "false" {
			t.Errorf("last page %s has a next_cursor or a next page", res.body)
		}
	})

	first := a.listPage(t, token, admins)
	other := newUserAPIWith(t, newDSN(t), app.Options{CursorSecret: []byte("another service's cursor secret")})
	otherIDs, otherToken := pagingSeed(t, other, 12)
	foreign := other.listPage(t, otherToken, admins).NextCursor
	if foreign == "" || len(otherIDs["admin"]) != 5 { // 4 seeded and the test admin
		t.Fatal("the other service gave no cursor")
	}
	body, sig, _ := strings.Cut(first.NextCursor, ".")
	bad := []struct {
		name  string
		query url.Values
	}{
		{"a cursor with one character changed", url.Values{"role": {"admin"}, "cursor": {body[:len(body)-1] + flipChar(body[len(body)-1]) + "." + sig}}},
		{"a cursor with its signature cut short", url.Values{"role": {"admin"}, "cursor": {body + "." + sig[:len(sig)/2]}}},
		{"a cursor that is not one", url.Values{"role": {"admin"}, "cursor": {"page-2-please"}}},
		{"a cursor signed with another service's key", url.Values{"role": {"admin"}, "cursor": {foreign}}},
		{"a cursor of role=admin used with role=member", url.Values{"role": {"member"}, "cursor": {first.NextCursor}}},
		{"a cursor of role=admin used with a search added", url.Values{"role": {"admin"}, "q": {"pager"}, "cursor": {first.NextCursor}}},
		{"a cursor of role=admin used without filters", url.Values{"cursor": {first.NextCursor}}},
	}
	for _, tt := range bad {
		t.Run(tt.name+" answers a 400 problem naming cursor", func(t *testing.T) {
			res := a.send(t, req{method: http.MethodGet, path: "/api/users?" + tt.query.Encode(), token: token})
			res.wantFields(t, http.StatusBadRequest, "cursor")
			res.wantHidden(t, "digest", "hmac", "sql")
		})
	}
	t.Run("a cursor over 512 characters answers a 422 problem naming cursor", func(t *testing.T) {
		a.send(t, req{method: http.MethodGet, path: "/api/users?cursor=" + strings.Repeat("a", 513), token: token}).
			wantFields(t, http.StatusUnprocessableEntity, "cursor")
	})
	t.Run("the Link headers walk the filtered list: rel=next to its end, rel=first back", func(t *testing.T) {
		var walked []int64
		first := ""
		a.walkLinks(t, token, "/api/users?"+admins.Encode(), func(p pageJSON, rel map[string]string) {
			walked = append(walked, userIDs(p)...)
			if first == "" {
				first = rel["first"]
			}
			if rel["first"] != first || !strings.Contains(rel["first"], "role=admin") || !strings.Contains(rel["first"], "limit=3") {
				t.Fatalf("rel=first %q, the first page said %q", rel["first"], first)
			}
		})
		all := a.listPage(t, token, url.Values{"role": {"admin"}, "limit": {"100"}})
		if !slices.Equal(walked, userIDs(all)) {
			t.Errorf("the links walked %v, the whole list is %v", walked, userIDs(all))
		}
	})
}

// walkLinks gets the list page at path and each page its Link header's
// rel="next" leads to, until one has none, and gives each to visit with
// its links; a page's has_next must agree with its next link.
func (a *userAPI) walkLinks(t *testing.T, token, path string, visit func(p pageJSON, rel map[string]string)) {
	t.Helper()
	for pages := 0; path != ""; pages++ {
		if pages > 50 {
			t.Fatal("the next links do not end")
		}
		res := a.send(t, req{method: http.MethodGet, path: path, token: token})
		var p pageJSON
		res.decode(t, http.StatusOK, &p)
		rel := servicetest.Links(res.header.Get("Link"))
		if p.HasNext != (rel["next"] != "") {
			t.Fatalf("%s: has_next %v with Link %q", path, p.HasNext, res.header.Get("Link"))
		}
		visit(p, rel)
		path = rel["next"]
	}
}

// flipChar changes a base64url character into another.
func flipChar(c byte) string {
	if c == 'A' {
		return "B"
	}
	return "A"
}

// userIDs lists the ids of a page.
func userIDs(p pageJSON) []int64 {
	out := make([]int64, len(p.Data))
	for i, u := range p.Data {
		out[i] = u.ID
	}
	return out
}

func TestUserListCountOverBudget(t *testing.T) {
	forEachUserBackend(t, testUserListCountOverBudget)
}

func testUserListCountOverBudget(t *testing.T, newDSN func(*testing.T) string) {
	// A budget of zero makes every count run out of time, as on a table
	// far too large to count.
	a := newUserAPIWith(t, newDSN(t), app.Options{Count: database.CountAuto(0)})
	_, token := pagingSeed(t, a, 25)
	total := 25 + 1 // the seed and the test admin

	for _, limit := range []int{1, 5, 10, 25} {
		t.Run(fmt.Sprintf("pages of %d keep has_next exact and say whether the total is", limit), func(t *testing.T) {
			maxPage := (total+limit-1)/limit - 1
			for page := 0; page <= maxPage; page++ {
				p := a.listPage(t, token, url.Values{"limit": {fmt.Sprint(limit)}, "page": {fmt.Sprint(page)}})
				last := page == maxPage
				if p.HasNext != !last || len(p.Data) != min(limit, total-page*limit) {
					t.Fatalf("page %d: has_next %v with %d users, want %v", page, p.HasNext, len(p.Data), !last)
				}
				switch {
				case last && (!p.TotalExact || p.TotalElements != total || p.MaxPage != maxPage):
					t.Errorf("last page %d: total_elements %d exact %v max_page %d, want the exact %d and %d, which the last page shows",
						page, p.TotalElements, p.TotalExact, p.MaxPage, total, maxPage)
				case !last && (p.TotalExact || p.TotalElements < (page+1)*limit+1 || p.MaxPage <= page):
					t.Errorf("page %d: total_elements %d exact %v max_page %d, want an estimate of at least %d and a max_page past the page",
						page, p.TotalElements, p.TotalExact, p.MaxPage, (page+1)*limit+1)
				}
			}
		})
	}
}

func TestUserListSpecDocumentsPaging(t *testing.T) {
	t.Parallel()
	a := newUserAPI(t, inMemory)
	var spec struct {
		Paths map[string]map[string]struct {
			Parameters []struct {
				Name string `json:"name"`
				In   string `json:"in"`
			} `json:"parameters"`
		} `json:"paths"`
		Components struct {
			Schemas map[string]struct {
				Properties map[string]struct {
					Description string `json:"description"`
				} `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(a.r.SpecJSON(), &spec); err != nil {
		t.Fatal(err)
	}
	t.Run("listUsers takes cursor in the query", func(t *testing.T) {
		var names []string
		for _, p := range spec.Paths["/api/users"]["get"].Parameters {
			if p.In == "query" {
				names = append(names, p.Name)
			}
		}
		if !slices.Contains(names, "cursor") || !slices.Contains(names, "page") {
			t.Errorf("query parameters %v lack cursor or page", names)
		}
	})
	t.Run("the paging envelope documents total_exact and next_cursor", func(t *testing.T) {
		found := false
		for name, s := range spec.Components.Schemas {
			if _, ok := s.Properties["total_elements"]; !ok {
				continue
			}
			found = true
			for _, prop := range []string{"total_exact", "next_cursor"} {
				if s.Properties[prop].Description == "" {
					t.Errorf("schema %s does not document %s", name, prop)
				}
			}
		}
		if !found {
			t.Error("no schema has total_elements")
		}
	})
}
