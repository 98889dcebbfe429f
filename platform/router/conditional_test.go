package router_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/asapjs/fiber-template/platform/etag"
	"github.com/asapjs/fiber-template/platform/paging"
	"github.com/asapjs/fiber-template/platform/router"
)

// versioned is an answer with a version, its entity tag.
type versioned struct {
	ID      int64  `json:"id"`
	Name    string `json:"name"`
	Version int64  `json:"-"`
}

func (v *versioned) EntityTag() string { return strconv.FormatInt(v.Version, 10) }

type versionedID struct {
	ID int64 `path:"id"`
}

type versionedWrite struct {
	router.IfMatchHeader
	ID   int64 `path:"id"`
	Body struct {
		Name string `json:"name" validate:"required"`
	}
}

// strictWrite is versionedWrite whose If-Match is required.
type strictWrite struct {
	router.RequiredIfMatchHeader
	ID   int64 `path:"id"`
	Body struct {
		Name string `json:"name" validate:"required"`
	}
}

// versionedRouter serves one record that every write versions: a GET, a
// list, a PUT that may be conditional and one that must be.
func versionedRouter(t *testing.T) *router.Router {
	var (
		mu  sync.Mutex
		rec = versioned{ID: 1, Name: "first", Version: 1}
	)
	// put writes name when the If-Match the binder read allows it.
	put := func(c *router.Ctx, m etag.Condition, name string) (*versioned, error) {
		mu.Lock()
		defer mu.Unlock()
		if m.Present && !m.Any && !slices.Contains(m.Opaque(), rec.EntityTag()) {
			return nil, c.PreconditionFailed(rec.EntityTag())
		}
		rec.Name, rec.Version = name, rec.Version+1
		out := rec
		return &out, nil
	}
	return newRouter(t, router.Config{
		JWTSecret: testSecret,
		Controllers: []router.Controller{router.Group{Path: "/things", Declared: []router.Route{
			router.Get("/", func(c *router.Ctx, in *listInput) (*paging.Page[versioned], error) {
				mu.Lock()
				defer mu.Unlock()
				page := paging.New([]versioned{rec}, 1, c.Paging())
				return &page, nil
			}),
			router.Get("/:id", func(c *router.Ctx, in *versionedID) (*versioned, error) {
				mu.Lock()
				defer mu.Unlock()
				out := rec
				return &out, nil
			}),
			router.Put("/:id", func(c *router.Ctx, in *versionedWrite) (*versioned, error) {
				return put(c, in.IfMatch, in.Body.Name)
			}),
			router.Put("/:id/strict", func(c *router.Ctx, in *strictWrite) (*versioned, error) {
				return put(c, in.IfMatch, in.Body.Name)
			}, router.Auth()),
		}}},
	})
}

func conditionalRequest(t *testing.T, r *router.Router, method, target, header, value, body string) (*http.Response, []byte) {
	t.Helper()
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if header != "" {
		req.Header.Set(header, value)
	}
	return do(t, r, req)
}

func TestGetAnswersNotModifiedToItsOwnTag(t *testing.T) {
	t.Parallel()
	r := versionedRouter(t)
	resp, _ := get(t, r, "/things/1")
	if resp.StatusCode != http.StatusOK || resp.Header.Get("ETag") != `"1"` {
		t.Fatalf("GET: status %d, ETag %q, want 200 and \"1\"", resp.StatusCode, resp.Header.Get("ETag"))
	}
	cases := []struct {
		name, ifNoneMatch string
		status            int
	}{
		{"its tag", `"1"`, http.StatusNotModified},
		{"its tag, weak", `W/"1"`, http.StatusNotModified},
		{"among others", `"7", "1"`, http.StatusNotModified},
		{"any", `*`, http.StatusNotModified},
		{"another tag", `"2"`, http.StatusOK},
		{"not a tag", `1`, http.StatusOK},
	}
	for _, tc := range cases {
		resp, body := conditionalRequest(t, r, http.MethodGet, "/things/1", "If-None-Match", tc.ifNoneMatch, "")
		if resp.StatusCode != tc.status {
			t.Errorf("%s (If-None-Match %s): status %d, want %d", tc.name, tc.ifNoneMatch, resp.StatusCode, tc.status)
		}
		if tc.status == http.StatusNotModified && (len(body) != 0 || resp.Header.Get("ETag") != `"1"`) {
			t.Errorf("%s: a 304 with body %q and ETag %q", tc.name, body, resp.Header.Get("ETag"))
		}
	}
}

func TestPagesHaveAWeakTag(t *testing.T) {
	t.Parallel()
	r := versionedRouter(t)
	resp, _ := get(t, r, "/things?limit=5")
	tag := resp.Header.Get("ETag")
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(tag, `W/"`) {
		t.Fatalf("a page: status %d, ETag %q, want a weak tag", resp.StatusCode, tag)
	}
	resp, body := conditionalRequest(t, r, http.MethodGet, "/things?limit=5", "If-None-Match", tag, "")
	if resp.StatusCode != http.StatusNotModified || len(body) != 0 || resp.Header.Get("ETag") != tag {
		t.Fatalf("the same page with If-None-Match: status %d, ETag %q, body %q; want a 304", resp.StatusCode, resp.Header.Get("ETag"), body)
	}
	if link := resp.Header.Get("Link"); link != "" {
		t.Errorf("a 304 carries the page's links %q", link)
	}
	if other, _ := get(t, r, "/things?limit=6"); other.Header.Get("ETag") == tag {
		t.Error("another page size has the same tag")
	}
	conditionalRequest(t, r, http.MethodPut, "/things/1", "", "", `{"name":"changed"}`)
	resp, _ = conditionalRequest(t, r, http.MethodGet, "/things?limit=5", "If-None-Match", tag, "")
	if resp.StatusCode != http.StatusOK || resp.Header.Get("ETag") == tag {
		t.Fatalf("the page after a change: status %d, ETag %q; want a 200 with a new tag", resp.StatusCode, resp.Header.Get("ETag"))
	}
}

func TestConditionalWrites(t *testing.T) {
	t.Parallel()
	r := versionedRouter(t)
	steps := []struct {
		name, target, auth, ifMatch string
		status                      int
		etag                        string
	}{
		{"the tag read", "/things/1", "", `"1"`, http.StatusOK, `"2"`},
		{"the same tag again", "/things/1", "", `"1"`, http.StatusPreconditionFailed, `"2"`},
		{"a weak tag never matches", "/things/1", "", `W/"2"`, http.StatusPreconditionFailed, `"2"`},
		{"one of several", "/things/1", "", `"9", "2"`, http.StatusOK, `"3"`},
		{"any", "/things/1", "", `*`, http.StatusOK, `"4"`},
		{"none: unconditional", "/things/1", "", "", http.StatusOK, `"5"`},
		{"required, absent", "/things/1/strict", roleToken(t, "member"), "", http.StatusPreconditionRequired, ""},
		{"required, no token", "/things/1/strict", "", "", http.StatusUnauthorized, ""},
		{"required, present", "/things/1/strict", roleToken(t, "member"), `"5"`, http.StatusOK, `"6"`},
	}
	for _, s := range steps {
		req := httptest.NewRequest(http.MethodPut, s.target, strings.NewReader(`{"name":"`+s.name+`"}`))
		req.Header.Set("Content-Type", "application/json")
		if s.ifMatch != "" {
			req.Header.Set("If-Match", s.ifMatch)
		}
		if s.auth != "" {
			req.Header.Set("Authorization", s.auth)
		}
		resp, body := do(t, r, req)
		if resp.StatusCode != s.status || resp.Header.Get("ETag") != s.etag {
			t.Fatalf("%s: status %d, ETag %q; want %d, %q: %s", s.name, resp.StatusCode, resp.Header.Get("ETag"), s.status, s.etag, body)
		}
		if s.status >= 400 {
			wantProblem(t, resp, body, s.status)
		}
	}
}

func TestConditionalRequestsAreDocumented(t *testing.T) {
	t.Parallel()
	_, body := get(t, versionedRouter(t), "/docs/spec.json")
	doc := loadSpec(t, body)
	header := func(params []string, name string) bool { return slices.Contains(params, name) }
	names := func(path, method string) (out []string, required map[string]bool) {
		op := doc.Paths.Find(path).GetOperation(method)
		required = map[string]bool{}
		for _, p := range op.Parameters {
			if p.Value.In == "header" {
				out = append(out, p.Value.Name)
				required[p.Value.Name] = p.Value.Required
			}
		}
		return out, required
	}
	for _, path := range []string{"/things", "/things/{id}"} {
		params, _ := names(path, http.MethodGet)
		op := doc.Paths.Find(path).Get
		if !header(params, "If-None-Match") || op.Responses.Status(http.StatusNotModified) == nil || op.Responses.Status(http.StatusOK).Value.Headers["ETag"] == nil {
			t.Errorf("GET %s does not document If-None-Match, its ETag and the 304", path)
		}
	}
	params, required := names("/things/{id}", http.MethodPut)
	put := doc.Paths.Find("/things/{id}").Put
	if !header(params, "If-Match") || required["If-Match"] || put.Responses.Status(http.StatusPreconditionFailed).Value.Headers["ETag"] == nil {
		t.Errorf("PUT /things/{id} does not document an optional If-Match and the 412 with the current ETag")
	}
	if put.Responses.Status(http.StatusPreconditionRequired) != nil {
		t.Error("PUT /things/{id} documents a 428 it never answers")
	}
	params, required = names("/things/{id}/strict", http.MethodPut)
	strict := doc.Paths.Find("/things/{id}/strict").Put
	if !header(params, "If-Match") || !required["If-Match"] || strict.Responses.Status(http.StatusPreconditionRequired) == nil {
		t.Errorf("PUT /things/{id}/strict does not document a required If-Match and the 428")
	}
}

func TestHeadAnswersAsGet(t *testing.T) {
	t.Parallel()
	r := versionedRouter(t)
	for _, target := range []string{"/things/1", "/things?limit=5"} {
		got, body := get(t, r, target)
		head, headBody := conditionalRequest(t, r, http.MethodHead, target, "", "", "")
		if head.StatusCode != http.StatusOK || len(headBody) != 0 {
			t.Fatalf("HEAD %s: status %d, body %q; want 200 without a body", target, head.StatusCode, headBody)
		}
		for _, name := range []string{"ETag", "Link", "Content-Type", "Content-Length"} {
			if head.Header.Get(name) != got.Header.Get(name) {
				t.Errorf("HEAD %s: %s %q, GET's %q", target, name, head.Header.Get(name), got.Header.Get(name))
			}
		}
		if got.Header.Get("Content-Length") != strconv.Itoa(len(body)) {
			t.Errorf("GET %s: Content-Length %q for %d bytes", target, got.Header.Get("Content-Length"), len(body))
		}
		resp, _ := conditionalRequest(t, r, http.MethodHead, target, "If-None-Match", got.Header.Get("ETag"), "")
		if resp.StatusCode != http.StatusNotModified {
			t.Errorf("HEAD %s with its own tag: status %d, want 304", target, resp.StatusCode)
		}
	}
	// A route without GET answers HEAD as it answers any method it lacks.
	resp, body := conditionalRequest(t, r, http.MethodHead, "/things/1/strict", "", "", "")
	if resp.StatusCode != http.StatusMethodNotAllowed || len(body) != 0 {
		t.Errorf("HEAD on a PUT route: status %d, body %q; want 405 without a body", resp.StatusCode, body)
	}
}

func TestMalformedConditionsMatchNothing(t *testing.T) {
	t.Parallel()
	r := versionedRouter(t)
	current := func() string {
		resp, _ := get(t, r, "/things/1")
		return resp.Header.Get("ETag")
	}
	for _, tc := range []struct {
		name   string
		fields func(tag string) []string
		status int
	}{
		{"junk after the tag", func(tag string) []string { return []string{tag + " junk"} }, http.StatusPreconditionFailed},
		{"two tags without a comma", func(tag string) []string { return []string{`"9" ` + tag} }, http.StatusPreconditionFailed},
		{"a tag and *", func(tag string) []string { return []string{tag + ", *"} }, http.StatusPreconditionFailed},
		{"sent empty", func(string) []string { return []string{""} }, http.StatusPreconditionFailed},
		{"a list over two fields", func(tag string) []string { return []string{`"9"`, tag} }, http.StatusOK},
	} {
		req := httptest.NewRequest(http.MethodPut, "/things/1", strings.NewReader(`{"name":"x"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header["If-Match"] = tc.fields(current())
		resp, body := do(t, r, req)
		if resp.StatusCode != tc.status {
			t.Errorf("PUT with If-Match %s: status %d, want %d: %s", tc.name, resp.StatusCode, tc.status, body)
		}
	}
	for _, value := range []string{current() + " junk", current() + "junk", `"x" ` + current(), current() + ", *"} {
		resp, _ := conditionalRequest(t, r, http.MethodGet, "/things/1", "If-None-Match", value, "")
		if resp.StatusCode != http.StatusOK {
			t.Errorf("GET with If-None-Match %s: status %d, want 200", value, resp.StatusCode)
		}
	}
}

// TestWritesAnswerInFullWhateverTheirIfNoneMatch: If-None-Match is how a
// GET revalidates what it has. A write that sends it still writes, and
// answers the representation it wrote with its tag, never a 304 without
// a body.
func TestWritesAnswerInFullWhateverTheirIfNoneMatch(t *testing.T) {
	t.Parallel()
	r := versionedRouter(t)
	// The first PUT writes version 2, the second version 3.
	for i, value := range []string{`*`, `"3"`} {
		name := "write " + strconv.Itoa(i)
		resp, body := conditionalRequest(t, r, http.MethodPut, "/things/1", "If-None-Match", value, `{"name":"`+name+`"}`)
		tag := `"` + strconv.Itoa(i+2) + `"`
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), name) || resp.Header.Get("ETag") != tag {
			t.Errorf("PUT with If-None-Match %s: status %d, ETag %q, body %q; want 200, %s and what it wrote", value, resp.StatusCode, resp.Header.Get("ETag"), body, tag)
		}
	}
	if _, body := get(t, r, "/things/1"); !strings.Contains(string(body), "write 1") {
		t.Errorf("after the writes, GET answers %s", body)
	}
}
