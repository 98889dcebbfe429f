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
// after it on the connection is read. A LF inside a chunk extension was
// served by fasthttp 1.51 (a proxy that ends the line at that LF reads the
// chunks, and so the next request, differently: fasthttp #1899).
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
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			wantRefusedAlone(t, base, head+tc.body)
		})
	}
	t.Run("a chunk extension read one way", func(t *testing.T) {
		t.Parallel()
		_, br := pipeline(t, base, head+size+";a=b\r\n"+framingJSON+"\r\n0\r\n\r\n"+framingNext)
		for _, want := range []string{`"ann"`, `"ping"`} {
			if resp, body := readAnswer(t, br); resp.StatusCode != http.StatusOK || !strings.Contains(string(body), want) {
				t.Fatalf("status %d, want 200 with %s: %s", resp.StatusCode, want, body)
			}
		}
	})
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
			_, br := pipeline(t, base, tc.request+framingNext)
			for _, want := range []string{`"ann"`, `"ping"`} {
				resp, body := readAnswer(t, br)
				if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), want) {
					t.Fatalf("status %d, want 200 with %s: %s", resp.StatusCode, want, body)
				}
			}
		})
	}
}
