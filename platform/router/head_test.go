package router_test

import (
	"io"
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
	// What each refusal's detail says, in words a client's author can act on.
	const (
		bareCR   = "A CR in the request head must be followed by LF."
		target   = "The request target may not hold a control character or a space."
		noHost   = "An HTTP/1.1 request must carry Host."
		twoHosts = "A request may carry at most one Host."
		value    = "A header value may not hold a control character other than a tab."
		name     = "A header name may hold only the characters of a token."
		version  = "Only HTTP/1.1 and HTTP/1.0 requests are served."
		folded   = "A header field may not continue on a folded line."
		host     = "Host may hold only a host name or address and a port."
		// fasthttp refuses most malformed heads itself, before the
		// router's check (head.go), which head_internal_test.go covers.
		parsed = "The request could not be parsed."
	)
	cases := []struct {
		name, request, detail string
	}{
		{"a bare CR hiding Content-Length (two answers before)",
			headOf("HTTP/1.1", "Host: test", "Foo: a\rContent-Length: "+strconv.Itoa(len(smuggled))) + smuggled, parsed},
		{"a bare CR ending a header line", headOf("HTTP/1.1", "Host: test", "Foo: a\r"), parsed},
		{"a bare CR between header lines", headOf("HTTP/1.1", "Host: test\rFoo: a"), parsed},
		{"a bare CR starting a header line", headOf("HTTP/1.1", "Host: test", "\rFoo: a"), parsed},
		// The version then reads "HTTP/1.1\rFoo: a", which is none.
		{"a bare CR after the version", "GET /api/framing HTTP/1.1\rFoo: a\r\nHost: test\r\n\r\n", parsed},
		{"a bare CR in the request target", "GET /api/fr\raming HTTP/1.1\r\nHost: test\r\n\r\n", parsed},
		{"a space in the request target", "GET /api/framing x HTTP/1.1\r\nHost: test\r\n\r\n", parsed},
		{"no Host on HTTP/1.1", headOf("HTTP/1.1", "Accept: */*"), parsed},
		{"two Host fields", headOf("HTTP/1.1", "Host: test", "Host: other"), parsed},
		{"two Host fields in other cases", headOf("HTTP/1.1", "host: test", "HOST: test"), parsed},
		{"a NUL in a header value", headOf("HTTP/1.1", "Host: test", "X-A: a\x00b"), parsed},
		{"a control character in a header value", headOf("HTTP/1.1", "Host: test", "X-A: a\x01b"), parsed},
		{"DEL in a header value", headOf("HTTP/1.1", "Host: test", "X-A: a\x7fb"), parsed},
		{"a NUL in the Host value", headOf("HTTP/1.1", "Host: te\x00st"), parsed},
		{"a header name that is not a token", headOf("HTTP/1.1", "Host: test", "X(A): b"), parsed},
		{"an empty header name", headOf("HTTP/1.1", "Host: test", ": b"), parsed},
		{"HTTP/0.9", headOf("HTTP/0.9", "Host: test"), version},
		{"HTTP/2.0", headOf("HTTP/2.0", "Host: test"), version},
		{"HTTP/1.2", headOf("HTTP/1.2", "Host: test"), version},
		{"a version in lower case", headOf("http/1.1", "Host: test"), parsed},
		{"an empty version", headOf("", "Host: test"), parsed},
		{"no version at all", "GET /api/framing\r\nHost: test\r\n\r\n", parsed},
		// An empty Host is what HTTP/1.1 asks of a target without an
		// authority, which this server has none of; fasthttp refuses it.
		{"an empty Host", headOf("HTTP/1.1", "Host:"), parsed},
		// fasthttp joins a folded line to the field before it; a proxy
		// that reads it as a field of its own sees a body here.
		{"a folded line that reads as Content-Length",
			headOf("HTTP/1.1", "Host: test", "X-A: a", " Content-Length: "+strconv.Itoa(len(framingNext))) + framingNext, folded},
		{"a folded line", headOf("HTTP/1.1", "Host: test", "X-A: a", "\tb"), folded},
		{"Host with user information", headOf("HTTP/1.1", "Host: evil@test"), host},
		{"Host as a port alone", headOf("HTTP/1.1", "Host: :80"), host},
		{"a target whose authority has user information", "GET http://evil@other/api/framing HTTP/1.1\r\nHost: test\r\n\r\n",
			"The request target's authority may hold only a host name or address and a port."},
		{"Host with a path", headOf("HTTP/1.1", "Host: test/a"), parsed},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if p := wantRefusedAlone(t, base, tc.request); p.Detail != tc.detail {
				t.Errorf("detail %q, want %q", p.Detail, tc.detail)
			}
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
		{"HTTP/1.1 with Host and a port", headOf("HTTP/1.1", "Host: test:8080")},
		{"HTTP/1.1 with Host an IPv6 address", headOf("HTTP/1.1", "Host: [::1]:8080")},
		{"HTTP/1.0 without Host", headOf("HTTP/1.0")},
		{"a tab and text past ASCII in a value", headOf("HTTP/1.1", "Host: test", "X-A: a\tb \xc3\xa9")},
		// fasthttp reads a byte past a head whose lines end in LF alone
		// before it serves it: here the next request's.
		{"lines ended by LF alone", "GET /api/framing HTTP/1.1\nHost: test\n\n" + framingNext},
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

// TestConnectionCloseEndsTheConnectionInAnyCase: a request that asks for
// the connection to close gets its answer and nothing after it is read,
// whatever the case of the option and wherever it is in the list (RFC 9110
// §7.6.1: connection options are case-insensitive).
func TestConnectionCloseEndsTheConnectionInAnyCase(t *testing.T) {
	t.Parallel()
	base := framingRouter(t)
	for _, value := range []string{"close", "Close", "CLOSE", "keep-alive, close", "Keep-Alive, Close"} {
		t.Run(value, func(t *testing.T) {
			t.Parallel()
			_, br := pipeline(t, base, headOf("HTTP/1.1", "Host: test", "Connection: "+value)+framingNext)
			resp, body := readAnswer(t, br)
			if resp.StatusCode != http.StatusOK || !resp.Close {
				t.Fatalf("status %d, close %v, want 200 and Connection: close: %s", resp.StatusCode, resp.Close, body)
			}
			if rest, _ := io.ReadAll(br); len(rest) > 0 {
				t.Fatalf("the request behind it was answered: %q", rest)
			}
		})
	}
}
