package router_test

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/asapjs/fiber-template/platform/problem"
	"github.com/asapjs/fiber-template/platform/router"
)

type framingIn struct {
	Body struct {
		Name string `json:"name" validate:"required,max=20"`
	}
}

type framingOut struct {
	Name string `json:"name"`
}

// framingRouter serves POST and GET /api/framing on a loopback port.
func framingRouter(t *testing.T) string {
	t.Helper()
	echo := func(c *router.Ctx, in *framingIn) (*framingOut, error) {
		return &framingOut{Name: in.Body.Name}, nil
	}
	ping := func(c *router.Ctx, _ *struct{}) (*framingOut, error) {
		return &framingOut{Name: "ping"}, nil
	}
	r := newRouter(t, router.Config{
		BasePath: "/api",
		Controllers: []router.Controller{router.Group{Path: "/framing", Declared: []router.Route{
			router.Post("/", echo),
			router.Get("/", ping),
		}}},
	})
	return listen(t, r)
}

// pipeline writes raw on a new connection at once and returns a reader of
// what the server answers.
func pipeline(t *testing.T, base, raw string) (net.Conn, *bufio.Reader) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(conn, raw); err != nil {
		t.Fatal(err)
	}
	return conn, bufio.NewReader(conn)
}

// readAnswer reads one response and its body.
func readAnswer(t *testing.T, br *bufio.Reader) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

const (
	framingJSON = `{"name":"ann"}`
	// framingNext is the request pipelined after each case; it must be
	// answered only after a well-framed request.
	framingNext = "GET /api/framing HTTP/1.1\r\nHost: test\r\n\r\n"
)

// framingHead is a POST of framingJSON with the given framing fields.
func framingHead(proto string, fields ...string) string {
	head := "POST /api/framing " + proto + "\r\nHost: test\r\nContent-Type: application/json\r\n"
	for _, f := range fields {
		head += f + "\r\n"
	}
	return head + "\r\n"
}

// chunked is framingJSON as one chunk and the last chunk.
var chunked = strconv.FormatInt(int64(len(framingJSON)), 16) + "\r\n" + framingJSON + "\r\n0\r\n\r\n"

func TestFramingAmbiguousRequestsAreRefusedAndTheConnectionClosed(t *testing.T) {
	t.Parallel()
	base := framingRouter(t)
	cl := "Content-Length: " + strconv.Itoa(len(framingJSON))
	cases := []struct {
		name, request string
	}{
		{"Transfer-Encoding xchunked next to Content-Length",
			framingHead("HTTP/1.1", "Transfer-Encoding: xchunked", cl) + framingJSON},
		{"Transfer-Encoding chunked next to Content-Length",
			framingHead("HTTP/1.1", "Content-Length: 5", "Transfer-Encoding: chunked") + chunked},
		{"Content-Length after Transfer-Encoding chunked",
			framingHead("HTTP/1.1", "Transfer-Encoding: chunked", cl) + chunked},
		{"two different Content-Lengths",
			framingHead("HTTP/1.1", cl, "Content-Length: 0") + framingJSON},
		{"two equal Content-Lengths",
			framingHead("HTTP/1.1", cl, cl) + framingJSON},
		{"a Content-Length list",
			framingHead("HTTP/1.1", cl+", "+strconv.Itoa(len(framingJSON))) + framingJSON},
		{"Transfer-Encoding identity",
			framingHead("HTTP/1.1", "Transfer-Encoding: identity", cl) + framingJSON},
		{"Transfer-Encoding xchunked alone",
			framingHead("HTTP/1.1", "Transfer-Encoding: xchunked") + chunked},
		{"Transfer-Encoding gzip, chunked",
			framingHead("HTTP/1.1", "Transfer-Encoding: gzip, chunked") + chunked},
		{"Transfer-Encoding chunked twice",
			framingHead("HTTP/1.1", "Transfer-Encoding: chunked", "Transfer-Encoding: chunked") + chunked},
		{"Transfer-Encoding chunked on HTTP/1.0",
			framingHead("HTTP/1.0", "Connection: keep-alive", "Transfer-Encoding: chunked") + chunked},
		{"a blank before the colon of Transfer-Encoding",
			framingHead("HTTP/1.1", "Transfer-Encoding : chunked", cl) + framingJSON},
		{"a folded Transfer-Encoding",
			framingHead("HTTP/1.1", "Transfer-Encoding: chunked", " identity") + chunked},
		{"TRANSFER-ENCODING in capitals next to Content-Length",
			framingHead("HTTP/1.1", "TRANSFER-ENCODING: chunked", "Content-Length: 5") + chunked},
		{"a second Content-Type",
			framingHead("HTTP/1.1", cl, "Content-Type: application/x-www-form-urlencoded") + framingJSON},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			wantRefusedAlone(t, base, tc.request)
		})
	}
}

// TestChunksReadOneWayAreServedAndTheRestRefused: a chunked body whose
// chunk lines another parser could cut elsewhere is refused, and nothing
// after it on the connection is read; after one that is served, nothing
// is read either. A LF inside a chunk extension was
// served by fasthttp 1.51 (a proxy that ends the line at that LF reads the
// chunks, and so the next request, differently: fasthttp #1899), a last
// chunk in 0x form by fasthttp 1.69.
func TestChunksReadOneWayAreServedAndTheRestRefused(t *testing.T) {
	t.Parallel()
	base := framingRouter(t)
	size := strconv.FormatInt(int64(len(framingJSON)), 16)
	head := framingHead("HTTP/1.1", "Transfer-Encoding: chunked")
	cases := []struct {
		name, body string
	}{
		{"a LF inside a chunk extension", size + ";a\nb\r\n" + framingJSON + "\r\n0\r\n\r\n"},
		{"a CR inside a chunk extension", size + ";a\rb\r\n" + framingJSON + "\r\n0\r\n\r\n"},
		{"a CR LF inside a quoted chunk extension", size + ";a=\"x\r\ny\"\r\n" + framingJSON + "\r\n0\r\n\r\n"},
		{"a chunk size ended by LF alone", size + "\n" + framingJSON + "\r\n0\r\n\r\n"},
		{"the last chunk ended by LF alone", size + "\r\n" + framingJSON + "\r\n0\n\r\n"},
		{"chunk data not followed by CR LF", size + "\r\n" + framingJSON + "XX0\r\n\r\n"},
		{"a chunk size in 0x form", "0x" + size + "\r\n" + framingJSON + "\r\n0\r\n\r\n"},
		{"a blank before the chunk size", " " + size + "\r\n" + framingJSON + "\r\n0\r\n\r\n"},
		{"a chunk size past 64 bits", "ffffffffffffffffff\r\n" + framingJSON + "\r\n0\r\n\r\n"},
		{"letters after a chunk size", size + "zz\r\n" + framingJSON + "\r\n0\r\n\r\n"},
		// fasthttp 1.69 read "0x2a" as a last chunk, "x2a" an extension
		// of it, and served what followed as a second request, which a
		// parser reading 42 bytes of chunk takes for body.
		{"a last chunk in 0x form, a request behind it", "0x2a\r\nX-Pad: a\r\n\r\n" + framingNext + "\r\n0\r\n\r\n"},
		{"a last chunk with a second size", "0 2a\r\nX-Pad: a\r\n\r\n" + framingNext},
		{"a bare CR in a trailer", size + "\r\n" + framingJSON + "\r\n0\r\nX-T: a\rb\r\n\r\n"},
		{"a trailer that is a second last chunk", size + "\r\n" + framingJSON + "\r\n0\r\n0\r\n\r\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			wantRefusedAlone(t, base, head+tc.body)
		})
	}
	served := []struct {
		name, body string
	}{
		{"a chunk extension", size + ";a=b\r\n" + framingJSON + "\r\n0\r\n\r\n"},
		{"a trailer", size + "\r\n" + framingJSON + "\r\n0\r\nX-T: a\r\n\r\n"},
		// fasthttp ends a trailer section at a LF alone, where a proxy
		// may read on: the request behind is never read, as after any
		// chunked body.
		{"a trailer section ended by LF alone, a request behind it", size + "\r\n" + framingJSON + "\r\n0\r\n\n" + framingNext},
		{"a trailer line ended by LF alone, a request behind it", size + "\r\n" + framingJSON + "\r\n0\r\nX-T: a\n\r\n" + framingNext},
	}
	for _, tc := range served {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			wantServed(t, base, head+tc.body)
		})
	}
}

// wantRefusedAlone sends request with framingNext pipelined behind it and
// fails t unless the one answer is a 400 problem that closes the
// connection, so the next request is never read.
func wantRefusedAlone(t *testing.T, base, request string) problem.Problem {
	t.Helper()
	_, br := pipeline(t, base, request+framingNext)
	resp, body := readAnswer(t, br)
	p := wantProblem(t, resp, body, http.StatusBadRequest)
	if !resp.Close {
		t.Error("the answer does not say Connection: close")
	}
	rest, err := io.ReadAll(br)
	if len(rest) > 0 {
		t.Fatalf("a second answer on the connection: %q", rest)
	}
	if err != nil && !errors.Is(err, syscall.ECONNRESET) {
		t.Fatalf("the connection was not closed: %v", err)
	}
	return p
}

func TestFramingWellFramedRequestsAreServed(t *testing.T) {
	t.Parallel()
	base := framingRouter(t)
	cases := []struct {
		name, request string
	}{
		{"Content-Length", framingHead("HTTP/1.1", "Content-Length: "+strconv.Itoa(len(framingJSON))) + framingJSON},
		{"chunked", framingHead("HTTP/1.1", "Transfer-Encoding: chunked") + chunked},
		{"chunked in capitals", framingHead("HTTP/1.1", "transfer-encoding:  CHUNKED ") + chunked},
		{"bare LF line endings", strings.ReplaceAll(framingHead("HTTP/1.1", "Content-Length: "+strconv.Itoa(len(framingJSON))), "\r\n", "\n") + framingJSON},
		{"fields with empty and blank values", framingHead("HTTP/1.1", "X-Empty:", "X-Blank: \t ", "Transfer-Encoding: chunked") + chunked},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			wantServed(t, base, tc.request)
		})
	}
}

// wantServed sends request, a POST of framingJSON, with framingNext
// pipelined behind it, and fails t unless it is answered 200 with the
// name; then the next request is answered too when request's body has a
// Content-Length, and the connection is closed with nothing more read
// when it is chunked, whose end this server and a proxy could see in
// different places.
func wantServed(t *testing.T, base, request string) {
	t.Helper()
	_, br := pipeline(t, base, request+framingNext)
	resp, body := readAnswer(t, br)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"ann"`) {
		t.Fatalf("status %d, want 200 with the name: %s", resp.StatusCode, body)
	}
	chunked := strings.Contains(strings.ToLower(request), "transfer-encoding")
	if resp.Close != chunked {
		t.Fatalf("Connection: close %v on an answer to a chunked request %v", resp.Close, chunked)
	}
	if chunked {
		if rest, _ := io.ReadAll(br); len(rest) > 0 {
			t.Fatalf("the request behind a chunked one was answered: %q", rest)
		}
		return
	}
	if resp, body := readAnswer(t, br); resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"ping"`) {
		t.Fatalf("the request behind: status %d, want 200 with ping: %s", resp.StatusCode, body)
	}
}
