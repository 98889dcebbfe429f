package integration

import (
	"cmp"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
)

func TestUserListSorts(t *testing.T) {
	forEachUserBackend(t, testUserListSorts)
}

// sortKey reads one sort key of a user, as a comparison.
type sortKey struct {
	name string
	cmp  func(a, b userJSON) int
}

// userSortKeys are the sort keys of the users list. Names and emails are
// lower case letters of one length, which every collation orders as Go
// does, so that the order can be checked here.
var userSortKeys = []sortKey{
	{"created_at", func(a, b userJSON) int { return a.CreatedAt.Compare(b.CreatedAt) }},
	{"name", func(a, b userJSON) int { return strings.Compare(a.Name, b.Name) }},
	{"email", func(a, b userJSON) int { return strings.Compare(a.Email, b.Email) }},
}

// sortedBy compares users in the order of a sort value: its keys, then the
// id in the direction of the last key.
func sortedBy(sort string) func(a, b userJSON) int {
	type step struct {
		cmp  func(a, b userJSON) int
		desc bool
	}
	var steps []step
	for _, k := range strings.Split(sort, ",") {
		name, desc := strings.CutPrefix(k, "-")
		i := slices.IndexFunc(userSortKeys, func(s sortKey) bool { return s.name == name })
		steps = append(steps, step{userSortKeys[i].cmp, desc})
	}
	last := steps[len(steps)-1].desc
	steps = append(steps, step{func(a, b userJSON) int { return cmp.Compare(a.ID, b.ID) }, last})
	return func(a, b userJSON) int {
		for _, s := range steps {
			if c := s.cmp(a, b); c != 0 {
				if s.desc {
					return -c
				}
				return c
			}
		}
		return 0
	}
}

// letters returns n random lower case letters of the first k of the
// alphabet, so that a small k makes ties.
func letters(r *rand.Rand, n, k int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('a' + r.IntN(k))
	}
	return string(b)
}

func testUserListSorts(t *testing.T, newDSN func(*testing.T) string) {
	a := newUserAPI(t, newDSN(t))
	r := rand.New(rand.NewPCG(7, 11))
	signUp := func(role string) userJSON {
		return a.signUp(t, map[string]any{"email": letters(r, 8, 26) + "@example.com", "name": letters(r, 2, 3),
			"password": "sorting-password-1", "role": role})
	}
	for i := range 23 {
		signUp([]string{"admin", "member"}[i%2])
	}
	token := a.adminToken(t)
	sorts := []string{"created_at", "-created_at", "name", "-name", "email", "-email", "name,-created_at", "-name,email"}
	for _, sort := range sorts {
		t.Run("sort="+sort+" walks the list by its Link headers once, in order, with users signing up between pages", func(t *testing.T) {
			before := a.listPage(t, token, url.Values{"limit": {"100"}})
			order := sortedBy(sort)
			var walked []userJSON
			a.walkLinks(t, token, "/api/users?"+url.Values{"sort": {sort}, "limit": {"4"}}.Encode(), func(p pageJSON, rel map[string]string) {
				walked = append(walked, p.Data...)
				if next := rel["next"]; next != "" && !strings.Contains(next, "sort="+url.QueryEscape(sort)) {
					t.Fatalf("rel=next %q does not keep the sort", next)
				}
				if p.Page < 3 {
					signUp("member")
				}
			})
			seen := map[int64]int{}
			for i, u := range walked {
				seen[u.ID]++
				if i > 0 && order(walked[i-1], u) >= 0 {
					t.Errorf("user %d (%s, %s, %s) came after user %d (%s, %s, %s)", u.ID, u.CreatedAt, u.Name, u.Email,
						walked[i-1].ID, walked[i-1].CreatedAt, walked[i-1].Name, walked[i-1].Email)
				}
			}
			for _, u := range before.Data {
				if seen[u.ID] != 1 {
					t.Errorf("user %d was listed %d times, want once", u.ID, seen[u.ID])
				}
			}
		})
	}

	first := a.listPage(t, token, url.Values{"sort": {"-created_at"}, "limit": {"3"}})
	bad := []struct {
		name  string
		query url.Values
		field string
	}{
		{"a cursor of sort=-created_at used with sort=created_at", url.Values{"sort": {"created_at"}, "cursor": {first.NextCursor}}, "cursor"},
		{"a cursor of sort=-created_at used without a sort", url.Values{"cursor": {first.NextCursor}}, "cursor"},
		{"a sort by a key not declared", url.Values{"sort": {"password_hash"}}, "sort"},
		{"a sort naming a key twice", url.Values{"sort": {"name,-name"}}, "sort"},
		{"an empty sort", url.Values{"sort": {""}}, "sort"},
		{"a sort with an empty key", url.Values{"sort": {"name,"}}, "sort"},
	}
	for _, tt := range bad {
		t.Run(tt.name+" answers a 400 problem naming "+tt.field, func(t *testing.T) {
			a.send(t, req{method: http.MethodGet, path: "/api/users?" + tt.query.Encode(), token: token}).
				wantFields(t, http.StatusBadRequest, tt.field)
		})
	}
	t.Run("a page reached by cursor answers its first page's count", func(t *testing.T) {
		p := a.listPage(t, token, url.Values{"sort": {"name"}, "limit": {"5"}})
		signUp("member")
		next := a.listPage(t, token, url.Values{"sort": {"name"}, "cursor": {p.NextCursor}})
		if next.TotalElements != p.TotalElements || next.TotalExact != p.TotalExact {
			t.Errorf("the next page counted %d (exact %v), its first page %d (exact %v)",
				next.TotalElements, next.TotalExact, p.TotalElements, p.TotalExact)
		}
		fresh := a.listPage(t, token, url.Values{"sort": {"name"}, "limit": {"5"}})
		if fresh.TotalElements != p.TotalElements+1 {
			t.Errorf("a first page counts %d, want %d", fresh.TotalElements, p.TotalElements+1)
		}
	})
}
