package router_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/asapjs/fiber-template/platform/problem"
	"github.com/asapjs/fiber-template/platform/router"
)

// What the router tells of a value holding a NUL character, and of one
// that is not UTF-8.
const (
	nulMessage  = "must not contain NUL characters"
	utf8Message = "must be UTF-8 text"
)

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

// wantTextRefused checks that the answer is the router's own 400 for a
// value that is not text it takes: not the 422 of the schema check, nor
// the 400 of a value that does not parse, but the problem that names the
// field and says what is wrong with its text.
func wantTextRefused(t *testing.T, resp *http.Response, body []byte, in, field, message string) {
	t.Helper()
	p := wantProblem(t, resp, body, http.StatusBadRequest)
	want := problem.Problem{Type: "about:blank", Title: "Bad Request", Status: http.StatusBadRequest, Detail: badValueDetail(in),
		Errors: []problem.FieldError{{Field: field, Message: message}}}
	if p.Type != want.Type || p.Title != want.Title || p.Detail != want.Detail ||
		len(p.Errors) != 1 || p.Errors[0] != want.Errors[0] {
		t.Errorf("problem %+v, want %+v", p, want)
	}
}

// TestNULAndNonUTF8AreTheRoutersOwn400 sends a NUL byte (%00), and bytes
// that are not UTF-8 (a lone %FF, the overlong %C0%AF, the surrogate
// %ED%A0%80), in every kind of value the router binds: it refuses them
// itself, with a 400 naming the field, before any parsing or schema check
// could answer otherwise. ({bad} in a case is where they go.)
func TestNULAndNonUTF8AreTheRoutersOwn400(t *testing.T) {
	t.Parallel()
	r := newRouter(t, router.Config{Controllers: []router.Controller{shapeRoutes()}})
	cases := []struct {
		name, target, in, field string
		form                    string // a form body; the request is a POST
	}{
		{"a string query value", "/s/query?q=a{bad}b", "query", "q", ""},
		{"a query value that is only NUL", "/s/query?q={bad}", "query", "q", ""},
		{"a query value that also breaks its max length", "/s/query?q=aaaaaaaa{bad}", "query", "q", ""},
		{"an enum query value", "/s/query?role=admin{bad}", "query", "role", ""},
		{"an integer query value", "/s/query?n=1{bad}", "query", "n", ""},
		{"a number query value", "/s/query?ratio=0.5{bad}", "query", "ratio", ""},
		{"a boolean query value", "/s/query?active=true{bad}", "query", "active", ""},
		{"a text-unmarshalled query value", "/s/query?code=AB{bad}", "query", "code", ""},
		{"a repeated query value", "/s/query?tag=a&tag=b{bad}", "query", "tag", ""},
		{"a pointer query value", "/s/pointer?name=Ad{bad}a", "query", "name", ""},
		{"a string path parameter", "/s/path/1/a{bad}b", "path", "slug", ""},
		{"a path parameter that is only NUL", "/s/path/1/{bad}", "path", "slug", ""},
		{"an integer path parameter", "/s/path/1{bad}/ab", "path", "id", ""},
		{"a form field", "/s/form", "form", "e_mail", "e_mail=a{bad}b%40example.com"},
		{"an integer form field", "/s/form", "form", "count", "e_mail=ada%40example.com&count=1{bad}"},
	}
	bads := []struct{ bytes, message string }{
		{"%00", nulMessage}, {"%FF", utf8Message}, {"%C0%AF", utf8Message}, {"%ED%A0%80", utf8Message},
	}
	for _, tc := range cases {
		for _, bad := range bads {
			t.Run(tc.name+" with "+bad.bytes+" is refused", func(t *testing.T) {
				t.Parallel()
				target, form := strings.ReplaceAll(tc.target, "{bad}", bad.bytes), strings.ReplaceAll(tc.form, "{bad}", bad.bytes)
				req := httptest.NewRequest(http.MethodGet, target, nil)
				if form != "" {
					req = httptest.NewRequest(http.MethodPost, target, strings.NewReader(form))
					req.Header.Set("Content-Type", router.MediaForm)
				}
				resp, body := do(t, r, req)
				wantTextRefused(t, resp, body, tc.in, tc.field, bad.message)
			})
		}
	}
}
