package router_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/asapjs/fiber-template/platform/router"
)

// note is a body every member of which is bounded: its route's limit is
// derived from the schema.
type note struct {
	Body struct {
		Title string   `json:"title" validate:"required,max=10"`
		Tags  []string `json:"tags,omitempty" validate:"omitempty,max=3,dive,max=5"`
	}
}

// noteForm is the same as a URL-encoded form.
type noteForm struct {
	Body struct {
		Title string `form:"title" validate:"required,max=10"`
	}
}

// noteEither is the same as JSON or as a multipart form.
type noteEither struct {
	Body struct {
		Title string `json:"title" form:"title" validate:"required,max=10"`
	}
}

type noted struct {
	Title string `json:"title"`
}

// edgeRouter serves the routes the edge tests need: bounded bodies, one
// with a declared limit, one that accepts gzip, one with an unbounded
// member, one form, and one that takes JSON (gzip too) or multipart.
func edgeRouter(t *testing.T) *router.Router {
	t.Helper()
	accept := func(c *router.Ctx, in *note) (*noted, error) { return &noted{Title: in.Body.Title}, nil }
	acceptUpload := func(c *router.Ctx, in *upload) (*noted, error) { return &noted{Title: in.Body.Name}, nil }
	acceptForm := func(c *router.Ctx, in *noteForm) (*noted, error) { return &noted{Title: in.Body.Title}, nil }
	acceptEither := func(c *router.Ctx, in *noteEither) (*noted, error) { return &noted{Title: in.Body.Title}, nil }
	return newRouter(t, router.Config{
		BodyLimit: streamLimit,
		Controllers: []router.Controller{router.Group{Path: "/notes", Declared: []router.Route{
			router.Post("/", accept),
			router.Post("/small", accept, router.BodyLimit(64)),
			router.Post("/gzip", accept, router.Decompress()),
			router.Post("/upload", acceptUpload),
			router.Post("/form", acceptForm, router.BodyContentType(router.MediaForm)),
			router.Post("/either", acceptEither, router.BodyContentType(router.MediaJSON, router.MediaMultipart), router.Decompress()),
		}}},
	})
}

// requestBodyLimit reads a route's documented body limit.
func requestBodyLimit(t *testing.T, r *router.Router, path string) int64 {
	t.Helper()
	var doc struct {
		Paths map[string]map[string]struct {
			RequestBody struct {
				Limit     int64    `json:"x-body-limit"`
				Encodings []string `json:"x-content-encodings"`
			} `json:"requestBody"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(r.SpecJSON(), &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Paths[path]["post"].RequestBody.Limit
}

func gzipped(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestRouteBodyLimits(t *testing.T) {
	r := edgeRouter(t)
	bounded := requestBodyLimit(t, r, "/notes")
	// {"title": 10 chars, "tags": 3 × 5 chars}, every character escaped,
	// twice over plus 4 KiB: a few KB, far below the server's ceiling.
	if bounded <= 0 || bounded > 8<<10 {
		t.Fatalf("documented limit of /notes = %d, want a few KB derived from its schema", bounded)
	}
	if got := requestBodyLimit(t, r, "/notes/small"); got != 64 {
		t.Errorf("documented limit of /notes/small = %d, want the declared 64", got)
	}
	if got := requestBodyLimit(t, r, "/notes/upload"); got != streamLimit {
		t.Errorf("documented limit of /notes/upload = %d, want the ceiling %d (text has no maxLength)", got, streamLimit)
	}
	if got := requestBodyLimit(t, r, "/notes/form"); got <= 0 || got > 8<<10 {
		t.Errorf("documented limit of /notes/form = %d, want a few KB", got)
	}

	// A body of exactly the limit passes; a byte more is a 413.
	for size, want := range map[int]int{64: http.StatusOK, 65: http.StatusRequestEntityTooLarge} {
		b := `{"title":"hello"` + strings.Repeat(" ", size-len(`{"title":"hello"}`)) + `}`
		if resp, body := send(t, r, http.MethodPost, "/notes/small", "application/json", b); resp.StatusCode != want {
			t.Errorf("a body of %d bytes where the limit is 64: %d %s, want %d", size, resp.StatusCode, body, want)
		}
	}

	// The longest valid body, every character escaped, still passes.
	escaped := strings.Repeat(`\ud83d\ude00`, 10)
	longest := `{"title":"` + escaped + `","tags":["` + strings.Repeat(`\u00e9`, 5) + `","a","b"]}`
	if resp, body := send(t, r, http.MethodPost, "/notes", "application/json", longest); resp.StatusCode != http.StatusOK {
		t.Fatalf("longest valid body: %d %s", resp.StatusCode, body)
	}

	base := listen(t, r)
	big := `{"title":"` + strings.Repeat("x", int(bounded)) + `"}`
	for _, tt := range []struct {
		name, path, body string
		chunked          bool
	}{
		{"over the schema's bound", "/notes", big, false},
		{"over the schema's bound, chunked", "/notes", big, true},
		{"over the declared limit", "/notes/small", `{"title":"` + strings.Repeat(" ", 60) + `"}`, false},
		{"a form over its bound", "/notes/form", "title=" + strings.Repeat("x", int(bounded)), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ct := "application/json"
			if strings.HasSuffix(tt.path, "form") {
				ct = "application/x-www-form-urlencoded"
			}
			var (
				resp *http.Response
				body []byte
			)
			if tt.chunked {
				// Over a connection: app.Test writes a Content-Length
				// beside the Transfer-Encoding, which is refused as a
				// smuggling shape.
				resp, body = sendReaderOverTCP(t, base, http.MethodPost, tt.path, ct, struct{ io.Reader }{strings.NewReader(tt.body)})
			} else {
				req := httptest.NewRequest(http.MethodPost, tt.path, strings.NewReader(tt.body))
				req.Header.Set("Content-Type", ct)
				resp, body = do(t, r, req)
			}
			p := wantProblem(t, resp, body, http.StatusRequestEntityTooLarge)
			if !strings.Contains(p.Detail, "at most") {
				t.Errorf("detail %q does not state the limit", p.Detail)
			}
		})
	}
}

func TestContentEncodings(t *testing.T) {
	r := edgeRouter(t)
	body := `{"title":"hello"}`
	for _, tt := range []struct {
		name, path, encoding, body string
		want                       int
		// accept is the Accept-Encoding of a 415: what the route takes.
		accept string
	}{
		{"gzip where the route does not accept it", "/notes", "gzip", gzipped(t, body), http.StatusUnsupportedMediaType, "identity"},
		{"deflate", "/notes", "deflate", body, http.StatusUnsupportedMediaType, "identity"},
		{"identity", "/notes", "identity", body, http.StatusOK, ""},
		{"gzip where the route accepts it", "/notes/gzip", "gzip", gzipped(t, body), http.StatusOK, ""},
		{"GZIP in capitals", "/notes/gzip", "GZIP", gzipped(t, body), http.StatusOK, ""},
		{"gzip twice", "/notes/gzip", "gzip, gzip", gzipped(t, gzipped(t, body)), http.StatusUnsupportedMediaType, "gzip, identity"},
		{"br where only gzip is accepted", "/notes/gzip", "br", body, http.StatusUnsupportedMediaType, "gzip, identity"},
		{"not gzip at all", "/notes/gzip", "gzip", body, http.StatusBadRequest, ""},
		// 1 MB of spaces compresses to about 1 KB and decompresses past
		// the route's limit: refused without decompressing the rest.
		{"decompressed past the limit", "/notes/gzip", "gzip", gzipped(t, `{"title":"x"`+strings.Repeat(" ", 1<<20)+`}`), http.StatusRequestEntityTooLarge, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodPost, tt.path, strings.NewReader(tt.body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Content-Encoding", tt.encoding)
			resp, got := do(t, r, req)
			if tt.want == http.StatusOK {
				if resp.StatusCode != http.StatusOK || !strings.Contains(string(got), "hello") {
					t.Fatalf("status %d, body %s; want 200 with the title", resp.StatusCode, got)
				}
				return
			}
			wantProblem(t, resp, got, tt.want)
			if accept := resp.Header.Get("Accept-Encoding"); accept != tt.accept {
				t.Errorf("Accept-Encoding %q, want %q", accept, tt.accept)
			}
		})
	}
}

// TestMultipartIsNeverGzipped sends a multipart body to a route that
// takes JSON gzipped or multipart: gzipped, it is a 415 naming identity,
// since a multipart body is parsed as it streams in, against the length it
// declares; as is, it binds.
func TestMultipartIsNeverGzipped(t *testing.T) {
	r := edgeRouter(t)
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	if err := w.WriteField("title", "hello"); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, encoding, body string
		want                 int
	}{
		{"as is", "", buf.String(), http.StatusOK},
		{"gzipped", "gzip", gzipped(t, buf.String()), http.StatusUnsupportedMediaType},
	} {
		req := httptest.NewRequest(http.MethodPost, "/notes/either", strings.NewReader(tt.body))
		req.Header.Set("Content-Type", w.FormDataContentType())
		if tt.encoding != "" {
			req.Header.Set("Content-Encoding", tt.encoding)
		}
		resp, got := do(t, r, req)
		if tt.want == http.StatusOK {
			if resp.StatusCode != http.StatusOK || !strings.Contains(string(got), "hello") {
				t.Errorf("multipart %s: %d %s, want 200 with the title", tt.name, resp.StatusCode, got)
			}
			continue
		}
		wantProblem(t, resp, got, tt.want)
		if accept := resp.Header.Get("Accept-Encoding"); accept != "identity" {
			t.Errorf("multipart %s: Accept-Encoding %q, want identity", tt.name, accept)
		}
	}
	// The route takes JSON gzipped all the same.
	req := httptest.NewRequest(http.MethodPost, "/notes/either", strings.NewReader(gzipped(t, `{"title":"hello"}`)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Content-Encoding", "gzip")
	if resp, got := do(t, r, req); resp.StatusCode != http.StatusOK {
		t.Errorf("JSON gzipped: %d %s, want 200", resp.StatusCode, got)
	}
}

func TestCharsets(t *testing.T) {
	r := edgeRouter(t)
	for ct, want := range map[string]int{
		"application/json":                       http.StatusOK,
		"application/json; charset=utf-8":        http.StatusOK,
		`application/json; charset="UTF-8"`:      http.StatusOK,
		"application/json; charset=utf-16":       http.StatusUnsupportedMediaType,
		"application/json;charset=iso-8859-1":    http.StatusUnsupportedMediaType,
		"application/json; foo=bar; charset=ucs": http.StatusUnsupportedMediaType,
	} {
		resp, body := send(t, r, http.MethodPost, "/notes", ct, `{"title":"hello"}`)
		if want == http.StatusOK {
			if resp.StatusCode != want {
				t.Errorf("%s: %d %s, want 200", ct, resp.StatusCode, body)
			}
			continue
		}
		wantProblem(t, resp, body, want)
	}
}

func TestStrictBodies(t *testing.T) {
	r := edgeRouter(t)
	t.Run("a form field twice", func(t *testing.T) {
		resp, body := send(t, r, http.MethodPost, "/notes/form", "application/x-www-form-urlencoded", "title=a&title=b")
		p := wantProblem(t, resp, body, http.StatusBadRequest)
		if p.Detail != "The request body has a field twice." || len(p.Errors) != 1 || p.Errors[0].Field != "title" || p.Errors[0].Message != "appears more than once" {
			t.Errorf("detail %q, errors %+v; want the field twice, title appearing more than once", p.Detail, p.Errors)
		}
	})
	t.Run("a body that is not an object names the body", func(t *testing.T) {
		for _, b := range []string{`[1,2]`, `"text"`, `12`} {
			resp, body := send(t, r, http.MethodPost, "/notes", "application/json", b)
			wantField(t, wantProblem(t, resp, body, http.StatusBadRequest), "body")
		}
	})
	t.Run("wrong types are refused as they are read", func(t *testing.T) {
		for _, b := range []string{
			`{"title":[` + strings.Repeat("1,", 500) + `1]}`,
			`{"title":{"a":{"b":{"c":[]}}}}`,
			`{"title":"a","tags":"x"}`,
			`{"title":"a","tags":[1]}`,
		} {
			resp, body := send(t, r, http.MethodPost, "/notes/upload", "application/json", strings.Replace(b, "title", "name", 1))
			p := wantProblem(t, resp, body, http.StatusBadRequest)
			if len(p.Errors) == 0 {
				t.Errorf("%.40s: no field named", b)
			}
		}
	})
	t.Run("error lists are capped", func(t *testing.T) {
		// Twenty errors are listed in full; past that, the detail says how
		// many there were.
		for n, detail := range map[int]string{
			20:   "The request does not have the documented shape.",
			21:   "The request does not have the documented shape. The first 20 of 21 errors are listed.",
			1000: "The request does not have the documented shape. The first 20 of 1000 errors are listed.",
		} {
			var b strings.Builder
			b.WriteString(`{"name":"a"`)
			for i := range n {
				fmt.Fprintf(&b, `,"k%d":1`, i)
			}
			b.WriteString("}")
			resp, body := send(t, r, http.MethodPost, "/notes/upload", "application/json", b.String())
			p := wantProblem(t, resp, body, http.StatusBadRequest)
			if len(p.Errors) != 20 || p.Detail != detail {
				t.Errorf("%d unknown members: %d errors listed, detail %q; want 20 and %q", n, len(p.Errors), p.Detail, detail)
			}
		}
	})
	t.Run("deep nesting", func(t *testing.T) {
		b := `{"name":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}`
		resp, body := send(t, r, http.MethodPost, "/notes/upload", "application/json", b)
		wantProblem(t, resp, body, http.StatusBadRequest)
	})
}
