package router_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// headOf is a GET of /api/framing with the given request line version and
// header lines.
func headOf(proto string, fields ...string) string {
	return "GET /api/framing " + proto + "\r\n" + strings.Join(append(fields, ""), "\r\n") + "\r\n"
}

func TestMalformedHeadsAreRefusedAndTheConnectionClosed(t *testing.T) {
	t.Parallel()
	base := framingRouter(t)
	// Smuggled is a whole request hidden as the body of one whose
	// Content-Length only a parser that ends lines at a bare CR sees.
	smuggled := framingNext
	cases := []struct {
		name, request string
	}{
		{"a bare CR hiding Content-Length (two answers before)",
			headOf("HTTP/1.1", "Host: test", "Foo: a\rContent-Length: "+strconv.Itoa(len(smuggled))) + smuggled},
		{"a bare CR ending a header line", headOf("HTTP/1.1", "Host: test", "Foo: a\r")},
		{"a bare CR between header lines", headOf("HTTP/1.1", "Host: test\rFoo: a")},
		{"a bare CR in the request line", "GET /api/framing HTTP/1.1\rFoo: a\r\nHost: test\r\n\r\n"},
		{"a bare CR in the request target", "GET /api/fr\raming HTTP/1.1\r\nHost: test\r\n\r\n"},
		{"a space in the request target", "GET /api/framing x HTTP/1.1\r\nHost: test\r\n\r\n"},
		{"no Host on HTTP/1.1", headOf("HTTP/1.1", "Accept: */*")},
		{"two Host fields", headOf("HTTP/1.1", "Host: test", "Host: other")},
		{"two Host fields in other cases", headOf("HTTP/1.1", "host: test", "HOST: test")},
		{"a NUL in a header value", headOf("HTTP/1.1", "Host: test", "X-A: a\x00b")},
		{"a control character in a header value", headOf("HTTP/1.1", "Host: test", "X-A: a\x01b")},
		{"DEL in a header value", headOf("HTTP/1.1", "Host: test", "X-A: a\x7fb")},
		{"a NUL in the Host value", headOf("HTTP/1.1", "Host: te\x00st")},
		{"a header name that is not a token", headOf("HTTP/1.1", "Host: test", "X(A): b")},
		{"HTTP/0.9", headOf("HTTP/0.9", "Host: test")},
		{"HTTP/2.0", headOf("HTTP/2.0", "Host: test")},
		{"HTTP/1.2", headOf("HTTP/1.2", "Host: test")},
		{"a version in lower case", headOf("http/1.1", "Host: test")},
		{"an empty version", headOf("", "Host: test")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			wantRefusedAlone(t, base, tc.request)
		})
	}
}

func TestWellFormedHeadsAreServed(t *testing.T) {
	t.Parallel()
	base := framingRouter(t)
	cases := []struct {
		name, request string
	}{
		{"HTTP/1.1 with Host", headOf("HTTP/1.1", "Host: test")},
		{"HTTP/1.1 with an empty Host", headOf("HTTP/1.1", "Host:")},
		{"HTTP/1.0 without Host", headOf("HTTP/1.0")},
		{"a tab and text past ASCII in a value", headOf("HTTP/1.1", "Host: test", "X-A: a\tb \xc3\xa9")},
		{"lines ended by LF alone", "GET /api/framing HTTP/1.1\nHost: test\n\n"},
		{"a query with every character a target may hold", headOf("HTTP/1.1", "Host: test")[:len("GET /api/framing")] +
			"?a=!$&'()*+,;=:@-._~%20/?" + headOf("HTTP/1.1", "Host: test")[len("GET /api/framing"):]},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, br := pipeline(t, base, tc.request)
			resp, body := readAnswer(t, br)
			if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"ping"`) {
				t.Fatalf("status %d, want 200 with ping: %s", resp.StatusCode, body)
			}
		})
	}
}
