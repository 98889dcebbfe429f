package router_test

import (
	"net/http"
	"regexp"
	"testing"

	"github.com/asapjs/fiber-template/platform/paging"
	"github.com/asapjs/fiber-template/platform/router"
	"github.com/asapjs/fiber-template/platform/servicetest"
)

// pageList serves rows 1 to n on GET /rows, paged by index only, as a
// list that issues no cursor does (the sessions of a user).
func pageList(t *testing.T, n int) *router.Router {
	t.Helper()
	list := func(c *router.Ctx, in *paging.Query) (*paging.Page[cursorRowOut], error) {
		p := c.Paging()
		var rows []cursorRowOut
		for id := p.Offset() + 1; id <= min(p.Offset()+p.Limit, n); id++ {
			rows = append(rows, cursorRowOut{ID: int64(id)})
		}
		page := paging.New(rows, n, p)
		return &page, nil
	}
	return newRouter(t, router.Config{Controllers: []router.Controller{
		router.Group{Declared: []router.Route{router.Get("/rows", list)}},
	}})
}

// TestLinkHeadersWalkTheList follows rel="next" from the first page of a
// list to its end, on a list that issues cursors and on one that pages by
// index only: every row comes once, in order, and rel="first" leads back
// to the first page.
func TestLinkHeadersWalkTheList(t *testing.T) {
	t.Parallel()
	for name, r := range map[string]*router.Router{
		"by cursor": cursorList(t, testCursors(t), 23),
		"by page":   pageList(t, 23),
	} {
		t.Run(name, func(t *testing.T) { walkLinks(t, r, 23) })
	}
}

// linkHeaderRE is a Link header as the router writes it: link-values of a
// target and a rel, separated by commas, none empty.
var linkHeaderRE = regexp.MustCompile(`^<[^<>]+>; rel="[a-z]+"(, <[^<>]+>; rel="[a-z]+")*$`)

// walkLinks follows the Link headers of the list of n rows on r.
func walkLinks(t *testing.T, r *router.Router, n int) {
	t.Helper()
	var seen []int64
	target, pages := "/rows?limit=5", 0
	var first string
	for target != "" {
		resp, body := get(t, r, target)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: status %d: %s", target, resp.StatusCode, body)
		}
		page := decode[paging.Page[cursorRowOut]](t, body)
		for _, row := range page.Data {
			seen = append(seen, row.ID)
		}
		if link := resp.Header.Get("Link"); !linkHeaderRE.MatchString(link) {
			t.Fatalf("%s: Link %q is not a list of <target>; rel=\"name\" (RFC 8288)", target, link)
		}
		rel := servicetest.Links(resp.Header.Get("Link"))
		if rel["first"] == "" {
			t.Fatalf("%s: no rel=\"first\" in Link %q", target, resp.Header.Get("Link"))
		}
		if first == "" {
			first = rel["first"]
		} else if rel["first"] != first {
			t.Errorf("%s: rel=\"first\" is %q, the first page said %q", target, rel["first"], first)
		}
		if page.HasNext != (rel["next"] != "") {
			t.Fatalf("%s: has_next %t but Link %q", target, page.HasNext, resp.Header.Get("Link"))
		}
		target = rel["next"]
		if pages++; pages > n/5+2 {
			t.Fatalf("the next links do not end: %d pages, rows %v", pages, seen)
		}
	}
	if len(seen) != n {
		t.Fatalf("walked %d rows over %d pages, want %d: %v", len(seen), pages, n, seen)
	}
	for i, id := range seen {
		if id != int64(i+1) {
			t.Fatalf("row %d is id %d: %v", i, id, seen)
		}
	}
	resp, body := get(t, r, first)
	if page := decode[paging.Page[cursorRowOut]](t, body); resp.StatusCode != http.StatusOK || page.Page != 0 || page.PageSize != 5 || page.Data[0].ID != 1 {
		t.Fatalf("rel=\"first\" %s: status %d, page %+v", first, resp.StatusCode, page)
	}
}

// TestLinkHeadersGoBackByPage: a page reached by its index links the page
// before it, with the same filters and size; the first page and a page
// reached by cursor do not.
func TestLinkHeadersGoBackByPage(t *testing.T) {
	t.Parallel()
	r := cursorList(t, testCursors(t), 23)
	for target, want := range map[string]string{
		"/rows?limit=5":        "",
		"/rows?limit=5&page=1": "/rows?limit=5&page=0",
		"/rows?page=4&limit=5": "/rows?limit=5&page=3",
	} {
		resp, body := get(t, r, target)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: status %d: %s", target, resp.StatusCode, body)
		}
		if got := servicetest.Links(resp.Header.Get("Link"))["prev"]; got != want {
			t.Errorf("%s: rel=\"prev\" %q, want %q", target, got, want)
		}
	}
	resp, _ := get(t, r, "/rows?limit=5")
	next := servicetest.Links(resp.Header.Get("Link"))["next"]
	resp, _ = get(t, r, next)
	if prev := servicetest.Links(resp.Header.Get("Link"))["prev"]; prev != "" {
		t.Errorf("a page reached by cursor links back to %q", prev)
	}
}

// TestLinkHeaderKeepsTheFiltersFirst pins the Link header of a filtered
// list: each link is the path, the filters in the request's order and
// escaping, then the cursor alone or the limit and the page; rel="first"
// has no page, and a link the route set stays last.
func TestLinkHeaderKeepsTheFiltersFirst(t *testing.T) {
	t.Parallel()
	type input struct {
		paging.Query
		paging.CursorQuery
		Q    string `query:"q"`
		Kind string `query:"kind"`
	}
	list := func(c *router.Ctx, in *input) (*paging.Page[cursorRowOut], error) {
		page := paging.New([]cursorRowOut{{ID: 1}}, 100, c.Paging())
		if in.Cursor == "" && in.Kind == "cursor" {
			page.NextCursor = "eyJhIjoxfQ==.c2ln-_"
		}
		return &page, nil
	}
	r := newRouter(t, router.Config{Controllers: []router.Controller{
		router.Group{Declared: []router.Route{router.Get("/rows", list)}},
	}})
	for target, want := range map[string]string{
		"/rows?limit=5": `</rows?limit=5&page=1>; rel="next", </rows?limit=5>; rel="first"`,
		"/rows?q=a+b%26c&page=2&limit=5&kind=k%C3%A9": `</rows?q=a+b%26c&kind=k%C3%A9&limit=5&page=3>; rel="next", ` +
			`</rows?q=a+b%26c&kind=k%C3%A9&limit=5&page=1>; rel="prev", </rows?q=a+b%26c&kind=k%C3%A9&limit=5>; rel="first"`,
		"/rows?kind=cursor&limit=5": `</rows?kind=cursor&cursor=eyJhIjoxfQ%3D%3D.c2ln-_>; rel="next", </rows?kind=cursor&limit=5>; rel="first"`,
	} {
		resp, body := get(t, r, target)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: status %d: %s", target, resp.StatusCode, body)
		}
		if got := resp.Header.Get("Link"); got != want {
			t.Errorf("%s: Link\n%s\nwant\n%s", target, got, want)
		}
	}
}
