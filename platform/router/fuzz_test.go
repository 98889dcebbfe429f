package router_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/asapjs/fiber-template/platform/problem"
	"github.com/asapjs/fiber-template/platform/router"
)

// fuzzRouter serves the input shapes of the agreement test.
func fuzzRouter(f *testing.F) *router.Router {
	r, err := router.New(router.Config{Controllers: []router.Controller{shapeRoutes()}, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		f.Fatal(err)
	}
	return r
}

// answerOf sends req and reads the answer; an answer that is not a 200 must
// be a client error as problem details naming a status like its own.
func answerOf(t *testing.T, r *router.Router, req *http.Request) (int, map[string]any) {
	t.Helper()
	// Bounded: an input the server never answers is a finding, not a
	// fuzzing run that ends in its own deadline.
	res, err := r.App().Test(req, int((5 * time.Second).Milliseconds()))
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	resp := res
	switch {
	case resp.StatusCode == http.StatusOK:
		var echoed map[string]any
		if err := json.Unmarshal(body, &echoed); err != nil {
			t.Fatalf("200 with a body that is not JSON: %s", body)
		}
		return resp.StatusCode, echoed
	case resp.StatusCode >= 500:
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	var p problem.Problem
	if err := json.Unmarshal(body, &p); err != nil || p.Status != resp.StatusCode || p.Detail == "" {
		t.Fatalf("status %d answered with %s, want problem details", resp.StatusCode, body)
	}
	return resp.StatusCode, nil
}

// sendable reports whether target is a request target an HTTP client can
// send: no spaces, fragments or control characters, and valid escapes.
func sendable(target string) bool {
	if strings.ContainsAny(target, " #\x7f") || strings.ContainsFunc(target, func(c rune) bool { return c < 0x20 }) {
		return false
	}
	_, err := url.ParseRequestURI(target)
	return err == nil
}

// FuzzQueryBinding sends arbitrary query strings and paths: nothing is a
// 5xx, and what binds keeps to the documented rules.
func FuzzQueryBinding(f *testing.F) {
	for _, seed := range []string{"", "q=abc&n=3&tag=a&tag=b&role=admin&active=true&code=AB", "n=0", "n=11", "q=abcdef",
		"tag=c", "ratio=1", "page=-1", "code=ab", "q=%00", "active=maybe", "n=1.5", "limit=1000", "role="} {
		f.Add(seed, "1", "slug")
	}
	r := fuzzRouter(f)
	f.Fuzz(func(t *testing.T, query, id, slug string) {
		target := "/s/query?" + query
		if !sendable(target) {
			return
		}
		status, echoed := answerOf(t, r, httptest.NewRequest(http.MethodGet, target, nil))
		if status == http.StatusOK {
			n, _ := echoed["N"].(float64)
			if q, _ := echoed["Q"].(string); len([]rune(q)) > 5 || strings.ContainsRune(q, 0) || (n != 0 && (n < 1 || n > 10)) {
				t.Fatalf("%s bound %v, which the rules refuse", target, echoed)
			}
			if role, _ := echoed["Role"].(string); role != "" && role != "admin" && role != "member" {
				t.Fatalf("%s bound the role %q", target, role)
			}
		}
		path := "/s/path/" + id + "/" + slug
		if strings.ContainsAny(id+slug, "/?") || !sendable(path) {
			return
		}
		answerOf(t, r, httptest.NewRequest(http.MethodGet, path, nil))
	})
}

// FuzzJSONBody sends arbitrary bodies: nothing is a 5xx, and a 200 carries
// a body the schema accepts.
func FuzzJSONBody(f *testing.F) {
	for _, seed := range []string{`{"name":"Ada","role":"admin"}`, `{"name":"Ada","role":"admin","note":null,"tags":["a"],"email":"a@b.co"}`,
		`{"name":"","role":"admin"}`, `{"name":"Ada","ROLE":"admin"}`, `{"name":"Ada","role":"member","role":"admin"}`,
		`{"name":5}`, `[]`, `null`, `{"name":"A\u0000","role":"admin"}`, `{"name":"Ada","role":"admin","tags":[1]}`, `{`} {
		f.Add([]byte(seed))
	}
	r := fuzzRouter(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		req := httptest.NewRequest(http.MethodPost, "/s/json", strings.NewReader(string(body)))
		req.Header.Set("Content-Type", router.MediaJSON)
		status, echoed := answerOf(t, r, req)
		if status != http.StatusOK {
			return
		}
		name, _ := echoed["name"].(string)
		role, _ := echoed["role"].(string)
		if name == "" || len([]rune(name)) > 5 || strings.ContainsRune(name, 0) || (role != "admin" && role != "member") {
			t.Fatalf("%s was accepted as %v", body, echoed)
		}
	})
}

// FuzzEncodedBody sends arbitrary bodies, gzipped or not, under arbitrary
// Content-Encodings, to a route that accepts gzip: nothing is a 5xx, only
// gzip once (or no coding) is ever accepted, and a 200 carries a body the
// schema accepts.
func FuzzEncodedBody(f *testing.F) {
	for _, seed := range []struct {
		body     string
		compress bool
		encoding string
	}{
		{`{"name":"Ada","role":"admin"}`, true, "gzip"},
		{`{"name":"Ada","role":"admin"}`, false, ""},
		{`{"name":"Ada","role":"admin"}`, true, "gzip, gzip"},
		{`{"name":"Ada","role":"admin"}`, false, "gzip"},
		{`{"name":[1,1,1,1,1,1,1,1,1],"role":"admin"}`, true, "gzip"},
		{`{"name":{"a":{"b":[{}]}},"role":"admin"}`, true, "identity"},
		{`{"name":"Ada","role":"admin","tags":"x"}`, true, "GZIP"},
		{`{"name":"Ada","role":"admin"}`, true, "deflate"},
	} {
		f.Add([]byte(seed.body), seed.compress, seed.encoding)
	}
	r, err := router.New(router.Config{Logger: slog.New(slog.DiscardHandler), Controllers: []router.Controller{router.Group{Path: "/z", Declared: []router.Route{
		router.Post("/json", func(_ *router.Ctx, in *shapesJSON) (*shapesJSONBody, error) { return &in.Body, nil }, router.Decompress()),
	}}}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body []byte, compress bool, encoding string) {
		if compress {
			var b bytes.Buffer
			zw := gzip.NewWriter(&b)
			_, _ = zw.Write(body)
			_ = zw.Close()
			body = b.Bytes()
		}
		req := httptest.NewRequest(http.MethodPost, "/z/json", bytes.NewReader(body))
		req.Header.Set("Content-Type", router.MediaJSON)
		if strings.ContainsFunc(encoding, func(c rune) bool { return c < 0x20 || c >= 0x7f }) {
			return // not a header value
		}
		req.Header.Set("Content-Encoding", encoding)
		status, echoed := answerOf(t, r, req)
		if status != http.StatusOK {
			return
		}
		if enc := strings.ToLower(strings.TrimSpace(encoding)); (enc == "gzip") != compress || (enc != "gzip" && enc != "" && enc != "identity") {
			t.Fatalf("a body compressed %v was accepted with Content-Encoding %q", compress, encoding)
		}
		name, _ := echoed["name"].(string)
		role, _ := echoed["role"].(string)
		if name == "" || len([]rune(name)) > 5 || strings.ContainsRune(name, 0) || (role != "admin" && role != "member") {
			t.Fatalf("%q was accepted as %v", body, echoed)
		}
	})
}
