package router_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/asapjs/fiber-template/platform/problem"
	"github.com/asapjs/fiber-template/platform/router"
)

// nulMessage is what the router tells of a value holding a NUL character.
const nulMessage = "must not contain NUL characters"

// badValueDetail is the detail of the router's 400 for a bad value, by
// where the value was ("query", "path" or "form", as the document spells
// it).
func badValueDetail(in string) string {
	switch in {
	case "query":
		return "Invalid query parameter."
	case "path":
		return "Invalid path parameter."
	}
	return "Invalid form field."
}

// wantNULRefused checks that the answer is the router's own 400 for a
// value holding a NUL character: not the 422 of the schema check, nor the
// 400 of a value that does not parse, but the problem that names the
// field and says NUL is not allowed.
func wantNULRefused(t *testing.T, resp *http.Response, body []byte, in, field string) {
	t.Helper()
	p := wantProblem(t, resp, body, http.StatusBadRequest)
	want := problem.Problem{Type: "about:blank", Title: "Bad Request", Status: http.StatusBadRequest, Detail: badValueDetail(in),
		Errors: []problem.FieldError{{Field: field, Message: nulMessage}}}
	if p.Type != want.Type || p.Title != want.Title || p.Detail != want.Detail ||
		len(p.Errors) != 1 || p.Errors[0] != want.Errors[0] {
		t.Errorf("problem %+v, want %+v", p, want)
	}
}

// TestANULByteIsTheRoutersOwn400 sends a NUL byte (%00) in every kind of
// value the router binds: it refuses it itself, with a 400 naming the
// field, before any parsing or schema check could answer otherwise.
func TestANULByteIsTheRoutersOwn400(t *testing.T) {
	t.Parallel()
	r := newRouter(t, router.Config{Controllers: []router.Controller{shapeRoutes()}})
	cases := []struct {
		name, target, in, field string
		form                    string // a form body; the request is a POST
	}{
		{"a string query value", "/s/query?q=a%00b", "query", "q", ""},
		{"a query value that is only NUL", "/s/query?q=%00", "query", "q", ""},
		{"a query value that also breaks its max length", "/s/query?q=aaaaaaaa%00", "query", "q", ""},
		{"an enum query value", "/s/query?role=admin%00", "query", "role", ""},
		{"an integer query value", "/s/query?n=1%00", "query", "n", ""},
		{"a number query value", "/s/query?ratio=0.5%00", "query", "ratio", ""},
		{"a boolean query value", "/s/query?active=true%00", "query", "active", ""},
		{"a text-unmarshalled query value", "/s/query?code=AB%00", "query", "code", ""},
		{"a repeated query value", "/s/query?tag=a&tag=b%00", "query", "tag", ""},
		{"a pointer query value", "/s/pointer?name=Ad%00a", "query", "name", ""},
		{"a string path parameter", "/s/path/1/a%00b", "path", "slug", ""},
		{"a path parameter that is only NUL", "/s/path/1/%00", "path", "slug", ""},
		{"an integer path parameter", "/s/path/1%00/ab", "path", "id", ""},
		{"a form field", "/s/form", "form", "e_mail", "e_mail=a%00b%40example.com"},
		{"an integer form field", "/s/form", "form", "count", "e_mail=ada%40example.com&count=1%00"},
	}
	for _, tc := range cases {
		t.Run(tc.name+" is refused", func(t *testing.T) {
			t.Parallel()
			req := httptest.NewRequest(http.MethodGet, tc.target, nil)
			if tc.form != "" {
				req = httptest.NewRequest(http.MethodPost, tc.target, strings.NewReader(tc.form))
				req.Header.Set("Content-Type", router.MediaForm)
			}
			resp, body := do(t, r, req)
			wantNULRefused(t, resp, body, tc.in, tc.field)
		})
	}
}
