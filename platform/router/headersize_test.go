package router_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/asapjs/fiber-template/platform/router"
)

// TestRequestSizeIsBoundedAndDocumented sends requests over TCP: a cursor
// as long as the document allows, with a bearer-sized header, reaches the
// route; a longer one is refused by the route naming cursor; a request line
// and headers over the server's read buffer are the documented 431 problem.
func TestRequestSizeIsBoundedAndDocumented(t *testing.T) {
	t.Parallel()
	r := cursorList(t, testCursors(t), 3)
	base := listen(t, r)
	send := func(target string, header string) (*http.Response, []byte) {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, base+target, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+header)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("GET %.60s…: %v", target, err)
		}
		defer resp.Body.Close()
		var body json.RawMessage
		_ = json.NewDecoder(resp.Body).Decode(&body)
		return resp, body
	}
	token := strings.Repeat("t", 1500)

	t.Run("the longest cursor the document allows reaches the route", func(t *testing.T) {
		resp, body := send("/rows?cursor="+strings.Repeat("A", 512), token)
		wantField(t, wantProblem(t, resp, body, http.StatusBadRequest), "cursor")
	})
	t.Run("a longer cursor is refused naming it", func(t *testing.T) {
		resp, body := send("/rows?cursor="+strings.Repeat("A", 513), token)
		wantField(t, wantProblem(t, resp, body, http.StatusUnprocessableEntity), "cursor")
	})
	t.Run("a request over the read buffer is the documented 431", func(t *testing.T) {
		resp, body := send("/rows", strings.Repeat("t", 9000))
		p := wantProblem(t, resp, body, http.StatusRequestHeaderFieldsTooLarge)
		if p.Code != "headers_too_large" || !strings.Contains(p.Detail, "8192") {
			t.Errorf("problem %+v, want headers_too_large naming the 8192-byte bound", p)
		}
		wantEdgeHeaders(t, resp.Header)
	})

	var doc struct {
		Paths map[string]map[string]struct {
			Parameters []struct {
				Name   string
				Schema struct{ MaxLength int }
			}
			Responses map[string]json.RawMessage
		}
	}
	if err := json.Unmarshal(r.SpecJSON(), &doc); err != nil {
		t.Fatal(err)
	}
	list := doc.Paths["/rows"]["get"]
	for _, p := range list.Parameters {
		if p.Name == "cursor" && p.Schema.MaxLength != 512 {
			t.Errorf("the document bounds cursor at %d characters, want 512", p.Schema.MaxLength)
		}
	}
	for path, item := range doc.Paths {
		for method, op := range item {
			for _, status := range []string{"408", "431"} {
				if _, ok := op.Responses[status]; !ok {
					t.Errorf("%s %s does not document the %s every request may get", method, path, status)
				}
			}
		}
	}
}

// wantEdgeHeaders fails t unless an answer the server gave before its
// middleware ran carries what every answer does: a request id and the
// security headers.
func wantEdgeHeaders(t *testing.T, h http.Header) {
	t.Helper()
	if id := h.Get("X-Request-Id"); id == "" {
		t.Error("no X-Request-ID")
	}
	if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("X-Frame-Options") != "DENY" {
		t.Errorf("no security headers: %v", h)
	}
}

// TestASlowRequestIsTheDocumented408 sends half a request line and waits
// past the read timeout: the answer is the 408 problem with its detail, a
// request id and the security headers.
func TestASlowRequestIsTheDocumented408(t *testing.T) {
	t.Parallel()
	r := newRouter(t, router.Config{ReadTimeout: 200 * time.Millisecond})
	// The headers never end: no blank line follows them.
	resp, body := rawRequest(t, listen(t, r), "GET /livez HTTP/1.1\r\nHost: x", 0)
	p := wantProblem(t, resp, []byte(body), http.StatusRequestTimeout)
	if p.Code != "request_read_timeout" || !strings.Contains(p.Detail, "200ms") {
		t.Errorf("problem %+v, want request_read_timeout naming the 200ms bound", p)
	}
	wantEdgeHeaders(t, resp.Header)
}
