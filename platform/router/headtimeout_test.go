package router_test

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/asapjs/fiber-template/platform/router"
)

// headTimeoutRouter serves POST and GET /api/framing with a short
// ReadHeaderTimeout and a long ReadTimeout.
func headTimeoutRouter(t *testing.T, head, body time.Duration) string {
	t.Helper()
	echo := func(c *router.Ctx, in *framingIn) (*framingOut, error) {
		return &framingOut{Name: in.Body.Name}, nil
	}
	ping := func(c *router.Ctx, _ *struct{}) (*framingOut, error) {
		return &framingOut{Name: "ping"}, nil
	}
	r := newRouter(t, router.Config{
		BasePath:          "/api",
		ReadHeaderTimeout: head,
		ReadTimeout:       body,
		Controllers: []router.Controller{router.Group{Path: "/framing", Declared: []router.Route{
			router.Post("/", echo),
			router.Get("/", ping),
		}}},
	})
	return listen(t, r)
}

func TestReadHeaderTimeout(t *testing.T) {
	t.Parallel()
	const head, body = 300 * time.Millisecond, 20 * time.Second
	base := headTimeoutRouter(t, head, body)
	// Each case sends first, then after a pause the rest; the answer comes
	// within the pipeline's 5 seconds only when the head's bound applies.
	cases := []struct {
		name        string
		first, rest string
		pause       time.Duration
		status      int
	}{
		{"a request line that never ends is a 408 after ReadHeaderTimeout",
			"GET /api/framing HTT", "", 0, http.StatusRequestTimeout},
		{"headers that never end are a 408 after ReadHeaderTimeout",
			"GET /api/framing HTTP/1.1\r\nHost: test\r\nAccept: */*", "", 0, http.StatusRequestTimeout},
		{"the second request of a kept-alive connection has the same bound",
			framingNext + "GET /api/framing HTTP/1.1\r\nHo", "", 0, http.StatusRequestTimeout},
		{"a body may arrive after ReadHeaderTimeout: ReadTimeout bounds it",
			framingHead("HTTP/1.1", "Content-Length: "+strconv.Itoa(len(framingJSON))), framingJSON, 3 * head, http.StatusOK},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			conn, br := pipeline(t, base, tc.first)
			if tc.pause > 0 {
				time.Sleep(tc.pause)
				if _, err := io.WriteString(conn, tc.rest); err != nil {
					t.Fatal(err)
				}
			}
			resp, answer := readAnswer(t, br)
			if strings.HasPrefix(tc.first, framingNext) { // the first answer was the kept-alive request's
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("the first request: %d %s", resp.StatusCode, answer)
				}
				resp, answer = readAnswer(t, br)
			}
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d %s, want %d", resp.StatusCode, answer, tc.status)
			}
			if took := time.Since(start); tc.status == http.StatusRequestTimeout && took < head {
				t.Errorf("answered 408 after %s, before ReadHeaderTimeout (%s)", took, head)
			}
		})
	}
}

// TestABodyDeclaredOverTheLimitWaitsForTheFirstRead pins down when a body
// its Content-Length declares too large is refused: fasthttp reads the
// first 8 KB of a body (all of it, when shorter) with the head, before any
// handler runs, so the 413 comes once that much is in; a client that
// declares a body and sends less of it is held until ReadTimeout like any
// slow sender, and then gets a 408.
func TestABodyDeclaredOverTheLimitWaitsForTheFirstRead(t *testing.T) {
	t.Parallel()
	const head, body = 300 * time.Millisecond, time.Second
	base := headTimeoutRouter(t, head, body)
	declared := framingHead("HTTP/1.1", "Content-Length: 1000000")
	cases := []struct {
		name   string
		sent   int
		status int
	}{
		{"the first 8 KB sent: refused at once", 8 << 10, http.StatusRequestEntityTooLarge},
		{"a byte sent: held until ReadTimeout", 1, http.StatusRequestTimeout},
		{"nothing sent: held until ReadTimeout", 0, http.StatusRequestTimeout},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			_, br := pipeline(t, base, declared+strings.Repeat("x", tc.sent))
			resp, answer := readAnswer(t, br)
			took := time.Since(start)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d %s, want %d", resp.StatusCode, answer, tc.status)
			}
			switch {
			case tc.status == http.StatusRequestEntityTooLarge && took >= head:
				t.Errorf("refused after %s: the whole first read was there", took)
			case tc.status == http.StatusRequestTimeout && took < body:
				t.Errorf("408 after %s, before ReadTimeout (%s)", took, body)
			}
			if !resp.Close {
				t.Error("the connection stays open with the rest of the body unread")
			}
		})
	}
}
