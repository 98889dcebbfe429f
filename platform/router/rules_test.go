package router_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/asapjs/fiber-template/platform/idempotency"
	"github.com/asapjs/fiber-template/platform/paging"
	"github.com/asapjs/fiber-template/platform/router"
)

// listed is a list route's input: paging and the sort K names.
type listed[K paging.Sortable] struct {
	paging.Query
	paging.SortQuery[K]
}

// byName and byNameThenCreation name the keys of sortable lists.
type (
	byName             struct{}
	byNameThenCreation struct{}
)

func (byName) SortKeys() []string             { return []string{"name"} }
func (byNameThenCreation) SortKeys() []string { return []string{"name", "created_at"} }

// listRouter serves GET /items, a page of nothing sortable by the keys K
// names, under a router whose largest limit is maxLimit. The answer's
// X-Sort header is the sort the handler was given.
func listRouter[K paging.Sortable](t *testing.T, maxLimit int) *router.Router {
	t.Helper()
	list := func(c *router.Ctx, in *listed[K]) (*paging.Page[struct{}], error) {
		var sorted []string
		for _, k := range in.Sort {
			sorted = append(sorted, k.String())
		}
		c.Fiber().Set("X-Sort", strings.Join(sorted, ","))
		p := paging.New([]struct{}{}, 0, c.Paging())
		return &p, nil
	}
	return newRouter(t, router.Config{MaxLimit: maxLimit, Controllers: []router.Controller{router.Group{Path: "/items", Declared: []router.Route{
		router.Get("/", list),
	}}}})
}

// documentedParam is the parameter name of the operation method path of
// r's served document.
func documentedParam(t *testing.T, r *router.Router, method, path, name string) *openapi3.Schema {
	t.Helper()
	_, raw := get(t, r, "/docs/spec.json")
	op := loadSpec(t, raw).Paths.Find(path).GetOperation(method)
	for _, p := range op.Parameters {
		if strings.EqualFold(p.Value.Name, name) {
			return p.Value.Schema.Value
		}
	}
	t.Fatalf("%s %s documents no parameter %s", method, path, name)
	return nil
}

// TestARuleOfAListIsWrittenOnce changes the rules of a list's inputs in
// the one place each is written (the router's largest limit, the route's
// sort keys) and sees the document, the binder's answer and its 400
// follow.
func TestARuleOfAListIsWrittenOnce(t *testing.T) {
	t.Parallel()
	for _, maxLimit := range []int{7, 13, 30} {
		t.Run(fmt.Sprintf("the largest limit is %d", maxLimit), func(t *testing.T) {
			t.Parallel()
			r := listRouter[byName](t, maxLimit)
			if s := documentedParam(t, r, http.MethodGet, "/items", paging.LimitParam); s.Max == nil || *s.Max != float64(maxLimit) {
				t.Errorf("the document's limit has the maximum %v, want %d", s.Max, maxLimit)
			}
			// A request without a limit gets the default, never more
			// than the largest.
			def := min(paging.DefaultLimit, maxLimit)
			if s := documentedParam(t, r, http.MethodGet, "/items", paging.LimitParam); s.Default != float64(def) {
				t.Errorf("the document's limit defaults to %v, want %d", s.Default, def)
			}
			if _, body := get(t, r, "/items"); !strings.Contains(string(body), fmt.Sprintf(`"page_size":%d`, def)) {
				t.Errorf("no limit sent: %s, want the limit %d", body, def)
			}
			if resp, body := get(t, r, fmt.Sprintf("/items?limit=%d", maxLimit)); resp.StatusCode != http.StatusOK {
				t.Errorf("limit=%d: %d %s", maxLimit, resp.StatusCode, body)
			}
			resp, body := get(t, r, fmt.Sprintf("/items?limit=%d", maxLimit+1))
			p := wantProblem(t, resp, body, http.StatusBadRequest)
			wantField(t, p, paging.LimitParam)
			if want := fmt.Sprintf("must be %d or less", maxLimit); p.Errors[0].Message != want {
				t.Errorf("limit=%d: %q, want %q", maxLimit+1, p.Errors[0].Message, want)
			}
		})
	}
	for _, r := range []struct {
		keys []string
		r    *router.Router
	}{
		{byName{}.SortKeys(), listRouter[byName](t, 100)},
		{byNameThenCreation{}.SortKeys(), listRouter[byNameThenCreation](t, 100)},
	} {
		keys := r.keys
		t.Run("sorted by "+strings.Join(keys, ","), func(t *testing.T) {
			t.Parallel()
			s := documentedParam(t, r.r, http.MethodGet, "/items", paging.SortParam)
			var enum []string
			for _, v := range s.Items.Value.Enum {
				enum = append(enum, fmt.Sprint(v))
			}
			var want []string
			for _, k := range keys {
				want = append(want, k, "-"+k)
			}
			if !slices.Equal(enum, want) || s.MaxItems == nil || *s.MaxItems != uint64(len(keys)) {
				t.Errorf("the document's sort takes %v, at most %v, want %v, at most %d", enum, s.MaxItems, want, len(keys))
			}
			last := "-" + keys[len(keys)-1]
			resp, body := get(t, r.r, "/items?sort="+last)
			if resp.StatusCode != http.StatusOK || resp.Header.Get("X-Sort") != last {
				t.Errorf("sort=%s: %d %s, the handler given %q", last, resp.StatusCode, body, resp.Header.Get("X-Sort"))
			}
			if resp, _ := get(t, r.r, "/items"); resp.Header.Get("X-Sort") != "" {
				t.Errorf("no sort sent, the handler given %q", resp.Header.Get("X-Sort"))
			}
			resp, body = get(t, r.r, "/items?sort=email")
			p := wantProblem(t, resp, body, http.StatusBadRequest)
			wantField(t, p, paging.SortParam)
			if !strings.Contains(p.Errors[0].Message, strings.Join(keys, ", ")) {
				t.Errorf("sort=email: %q, want the keys %v named", p.Errors[0].Message, keys)
			}
		})
	}
}

// TestTheIdempotencyKeyLengthIsWrittenOnce: the longest Idempotency-Key
// the document allows is accepted, and one character more is the
// binder's 400 naming the header.
func TestTheIdempotencyKeyLengthIsWrittenOnce(t *testing.T) {
	t.Parallel()
	r, _ := idempotentRouterOn(t, &keyStore{recs: map[string]idempotency.Record{}}, nil, nil)
	s := documentedParam(t, r, http.MethodPost, "/things", router.HeaderIdempotencyKey)
	if s.MaxLength == nil {
		t.Fatal("the document's Idempotency-Key has no maxLength")
	}
	longest := int(*s.MaxLength)
	create := func(key string) (*http.Response, []byte) {
		req := httptest.NewRequest(http.MethodPost, "/things", strings.NewReader(`{"name":"a"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(router.HeaderIdempotencyKey, key)
		return do(t, r, req)
	}
	if resp, body := create(strings.Repeat("k", longest)); resp.StatusCode != http.StatusCreated {
		t.Errorf("a key of %d characters: %d %s", longest, resp.StatusCode, body)
	}
	resp, body := create(strings.Repeat("k", longest+1))
	p := wantProblem(t, resp, body, http.StatusBadRequest)
	wantField(t, p, router.HeaderIdempotencyKey)
	if want := fmt.Sprintf("at most %d characters", longest); !strings.Contains(p.Errors[0].Message, want) {
		t.Errorf("a key of %d characters: %q, want it to say %q", longest+1, p.Errors[0].Message, want)
	}
}
