package integration

import (
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// seedUser is one of the users the list suite signs up.
type seedUser struct {
	id                int64
	email, name, role string
	active            bool
}

// listSeed returns the 45 users the list suite signs up (the test admin
// that signs them up makes 46 listed): roles in turn, every
// fourth inactive, and a few names holding the LIKE wildcards and the
// escape character, which must match only themselves.
func listSeed() []seedUser {
	roles := []string{"admin", "member", "guest"}
	users := make([]seedUser, 45)
	for i := range users {
		n := i + 1
		users[i] = seedUser{
			email:  fmt.Sprintf("user%02d@example.com", n),
			name:   fmt.Sprintf("Member %02d", n),
			role:   roles[n%3],
			active: n%4 != 0,
		}
	}
	users[6].name = "Discount 100% Off"
	users[13].name = "snake_case Fan"
	users[20].name = "Hello! World"
	users[29].email = "Mixed.Case30@Example.com"
	users[35].name = "ÉLAN Ünal"
	return users
}

// matches is the contract of the list filters, to compute what a query
// must answer.
func (u seedUser) matches(q url.Values) bool {
	if r := q.Get("role"); r != "" && u.role != r {
		return false
	}
	if act := q.Get("active"); act != "" && fmt.Sprint(u.active) != act {
		return false
	}
	if s := asciiLower(q.Get("q")); s != "" &&
		!strings.Contains(asciiLower(u.name), s) && !strings.Contains(asciiLower(u.email), s) {
		return false
	}
	return true
}

// asciiLower lowers the ASCII letters of s only, as LOWER does on SQLite
// and on PostgreSQL in the C locale (the test clusters'): the case aside
// that q promises everywhere.
func asciiLower(s string) string {
	return strings.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}

func TestListUsers(t *testing.T) {
	forEachUserBackend(t, testListUsers)
}

func testListUsers(t *testing.T, newDSN func(*testing.T) string) {
	a := newUserAPI(t, newDSN(t))
	seed := listSeed()
	for i, u := range seed {
		created := a.signUp(t, map[string]any{"email": u.email, "name": u.name, "password": "seed-password-45", "role": u.role, "active": u.active})
		seed[i].id = created.ID
		seed[i].email = strings.ToLower(u.email)
	}
	// The list is for admins: the test admin that signed the seed up lists
	// it, and is listed with it.
	token := a.adminToken(t)
	admin := a.send(t, req{method: http.MethodGet, path: "/api/users/me", token: token}).wantUser(t, http.StatusOK)
	seed = append([]seedUser{{id: admin.ID, email: admin.Email, name: admin.Name, role: admin.Role, active: admin.Active}}, seed...)

	list := func(t *testing.T, query string) (pageJSON, response) {
		t.Helper()
		res := a.send(t, req{method: http.MethodGet, path: "/api/users?" + query, token: token})
		var page pageJSON
		res.decode(t, http.StatusOK, &page)
		return page, res
	}
	// wantAllPages lists every page of query at limit and checks each envelope
	// and that the pages partition the expected users, in id order.
	wantAllPages := func(t *testing.T, query url.Values, limit int) {
		t.Helper()
		var want []int64
		for _, u := range seed {
			if u.matches(query) {
				want = append(want, u.id)
			}
		}
		total := len(want)
		maxPage := (total+limit-1)/limit - 1
		var got []int64
		for page := 0; page <= maxPage+1; page++ {
			q := maps.Clone(query)
			q.Set("limit", fmt.Sprint(limit))
			q.Set("page", fmt.Sprint(page))
			p, res := list(t, q.Encode())
			// A table this small is counted within the budget: exact.
			if p.Page != page || p.PageSize != limit || p.MaxPage != maxPage || p.TotalElements != total || !p.TotalExact ||
				p.HasPrev != (page > 0) || p.HasNext != (page < maxPage) || p.HasNext != (p.NextCursor != "") {
				t.Errorf("%s: envelope page=%d page_size=%d max_page=%d total_elements=%d total_exact=%v has_prev=%v has_next=%v next_cursor=%q, want %d %d %d %d true %v %v and a cursor with a next page",
					q.Encode(), p.Page, p.PageSize, p.MaxPage, p.TotalElements, p.TotalExact, p.HasPrev, p.HasNext, p.NextCursor,
					page, limit, maxPage, total, page > 0, page < maxPage)
			}
			wantLen := min(limit, max(0, total-page*limit))
			if len(p.Data) != wantLen {
				t.Errorf("%s: %d users, want %d", q.Encode(), len(p.Data), wantLen)
			}
			if wantLen == 0 && !strings.Contains(string(res.body), `"data":[]`) {
				t.Errorf("%s: an empty page must have an empty data array: %s", q.Encode(), res.body)
			}
			for _, u := range p.Data {
				got = append(got, u.ID)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s at limit %d: pages hold ids %v, want %v", query.Encode(), limit, got, want)
		}
	}
	for _, limit := range []int{1, 9, 15, 20, 45, 100} {
		t.Run(fmt.Sprintf("pages of %d partition the 46 users, and the page past the end is empty", limit), func(t *testing.T) {
			wantAllPages(t, url.Values{}, limit)
		})
	}

	t.Run("without page and limit the first 20 users come, with the envelope of 46", func(t *testing.T) {
		p, _ := list(t, "")
		if p.Page != 0 || p.PageSize != 20 || p.MaxPage != 2 || p.TotalElements != 46 || p.HasPrev || !p.HasNext || len(p.Data) != 20 {
			t.Errorf("envelope %+v, want page 0 of size 20, max_page 2, 46 in all, next only", p)
		}
		for i, u := range p.Data {
			if u.ID != seed[i].id {
				t.Errorf("user %d has id %d, want %d: users come by id", i, u.ID, seed[i].id)
			}
		}
	})

	t.Run("a page far past the end answers 200 with no users", func(t *testing.T) {
		p, res := list(t, "page=100000&limit=100")
		if len(p.Data) != 0 || p.TotalElements != 46 || p.HasNext || !p.HasPrev || p.MaxPage != 0 {
			t.Errorf("envelope %s, want no data, 46 in all, max_page 0, prev only", res.body)
		}
	})

	badPaging := []struct {
		query, field string
	}{
		{"page=-1", "page"},
		{"page=abc", "page"},
		{"page=1.5", "page"},
		{"limit=0", "limit"},
		{"limit=-5", "limit"},
		{"limit=101", "limit"},
		{"limit=ten", "limit"},
		{"page=99999999999", "page"},
	}
	for _, tt := range badPaging {
		t.Run("paging "+tt.query+" answers a 400 problem naming "+tt.field, func(t *testing.T) {
			a.send(t, req{method: http.MethodGet, path: "/api/users?" + tt.query, token: token}).
				wantFields(t, http.StatusBadRequest, tt.field)
		})
	}

	filters := []struct {
		name  string
		query url.Values
		// count is the expected number of users, stated here as well so a
		// mistake in matches cannot hide one in the service.
		count int
	}{
		// The test admin (active, named Test Admin) adds one admin.
		{"role admin", url.Values{"role": {"admin"}}, 16},
		{"role member", url.Values{"role": {"member"}}, 15},
		{"role guest", url.Values{"role": {"guest"}}, 15},
		{"active true", url.Values{"active": {"true"}}, 35},
		{"active false", url.Values{"active": {"false"}}, 11},
		{"q matching names, case aside", url.Values{"q": {"MEMBER 0"}}, 8},
		{"q matching emails", url.Values{"q": {"user0"}}, 9},
		{"q matching a stored lower-cased email by its original case", url.Values{"q": {"Mixed.Case30"}}, 1},
		{"q of % matching only a literal percent sign", url.Values{"q": {"%"}}, 1},
		{"q of _ matching only a literal underscore", url.Values{"q": {"_"}}, 1},
		{"q of 100% matching only that text", url.Values{"q": {"100%"}}, 1},
		{"q of e_c matching only that text", url.Values{"q": {"e_c"}}, 1},
		{"q of the escape character ! matching only itself", url.Values{"q": {"!"}}, 1},
		{"q matching nobody", url.Values{"q": {"zebra"}}, 0},
		{"q of non-ASCII capitals finding their own text", url.Values{"q": {"ÉLAN Ü"}}, 1},
		{"q of ASCII capitals beside non-ASCII ones, case aside", url.Values{"q": {"Élan"}}, 1},
		{"role and active", url.Values{"role": {"admin"}, "active": {"false"}}, 3},
		{"role and q", url.Values{"role": {"member"}, "q": {"%"}}, 1},
		{"role, q and active", url.Values{"role": {"guest"}, "q": {"member"}, "active": {"true"}}, 10},
	}
	for _, tt := range filters {
		t.Run("the filter "+tt.name+" keeps exactly its users", func(t *testing.T) {
			n := 0
			for _, u := range seed {
				if u.matches(tt.query) {
					n++
				}
			}
			if n != tt.count {
				t.Fatalf("the seed has %d users for %s, the test says %d", n, tt.query.Encode(), tt.count)
			}
			wantAllPages(t, tt.query, 20)
			wantAllPages(t, tt.query, 4)
		})
	}

	badFilters := []struct {
		query  string
		status int
		field  string
	}{
		{"role=root", http.StatusUnprocessableEntity, "role"},
		{"active=maybe", http.StatusBadRequest, "active"},
		{"q=" + strings.Repeat("x", 101), http.StatusUnprocessableEntity, "q"},
	}
	for _, tt := range badFilters {
		t.Run(fmt.Sprintf("the filter %.20s answers a %d problem naming %s", tt.query, tt.status, tt.field), func(t *testing.T) {
			a.send(t, req{method: http.MethodGet, path: "/api/users?" + tt.query, token: token}).
				wantFields(t, tt.status, tt.field)
		})
	}
}
