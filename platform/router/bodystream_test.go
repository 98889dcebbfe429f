package router_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/asapjs/fiber-template/platform/router"
)

// upload is a body with a bounded and an unbounded string.
type upload struct {
	Body struct {
		Name string `json:"name" validate:"required,max=20"`
		Text string `json:"text"`
	}
}

type uploaded struct {
	Name string `json:"name"`
	Size int    `json:"size"`
}

const streamLimit = 4 << 20

func streamRouter(t *testing.T) string {
	t.Helper()
	accept := func(c *router.Ctx, in *upload) (*uploaded, error) {
		return &uploaded{Name: in.Body.Name, Size: len(in.Body.Text)}, nil
	}
	r := newRouter(t, router.Config{
		BasePath:  "/api",
		BodyLimit: streamLimit,
		JWTSecret: testSecret,
		// Shorter than testkit's wait for the shutdown, so that a
		// connection a loaded machine left mid-request cannot hold it.
		ReadTimeout: 8 * time.Second,
		IdleTimeout: time.Second,
		Controllers: []router.Controller{router.Group{Path: "/uploads", Declared: []router.Route{
			router.Post("/", accept),
			router.Put("/private", accept, router.Auth()),
		}}},
	})
	return listen(t, r)
}

// rawRequest writes a request's head and the first part of its body on a
// new connection, never the rest, and returns the answer the server gives
// meanwhile: an answer proves the server did not wait for the body.
func rawRequest(t *testing.T, base, head string, firstPart int) (*http.Response, string) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if _, err := io.WriteString(conn, head+"\r\n"+strings.Repeat("x", firstPart)); err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	// The method tells whether the answer has a body (not to HEAD).
	method, _, _ := strings.Cut(head, " ")
	resp, err := http.ReadResponse(bufio.NewReader(conn), &http.Request{Method: method})
	if err != nil {
		t.Fatalf("no answer while the body was still being sent (was it read?): %v", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(body)
}

func TestRequestsAreAnsweredBeforeTheirBodyIsRead(t *testing.T) {
	t.Parallel()
	base := streamRouter(t)
	head := func(method, target, contentType string, length int) string {
		return fmt.Sprintf("%s %s HTTP/1.1\r\nHost: test\r\nContent-Type: %s\r\nContent-Length: %d\r\n", method, target, contentType, length)
	}
	cases := []struct {
		name, head string
		status     int
	}{
		{"a missing token", head(http.MethodPut, "/api/uploads/private", "application/json", 3<<20), http.StatusUnauthorized},
		{"an invalid token", head(http.MethodPut, "/api/uploads/private", "application/json", 3<<20) + "Authorization: Bearer nope\r\n", http.StatusUnauthorized},
		{"a content type the route does not take", head(http.MethodPost, "/api/uploads", "text/plain", 3<<20), http.StatusUnsupportedMediaType},
		// No route serves the path at all: not found, unread.
		{"an unknown route", head(http.MethodPost, "/api/nowhere", "application/json", 3<<20), http.StatusNotFound},
		// No route that takes a body serves these (bodiless.go).
		{"a method the path does not have", head(http.MethodDelete, "/api/uploads", "application/json", 3<<20), http.StatusRequestEntityTooLarge},
		{"a declared length over the limit", head(http.MethodPost, "/api/uploads", "application/json", streamLimit+1), http.StatusRequestEntityTooLarge},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			resp, body := rawRequest(t, base, tc.head, 64<<10)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.status, body)
			}
			wantRefusedUnread(t, resp)
		})
	}
}

// wantRefusedUnread checks the answer to a request whose body was left
// unread: a problem, on a connection closed after it.
func wantRefusedUnread(t *testing.T, resp *http.Response) {
	t.Helper()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/problem+json") {
		t.Errorf("content type %q, want a problem", ct)
	}
	if !resp.Close {
		t.Error("the connection is kept open although the rest of the body is still on it")
	}
}

func TestStreamedBodies(t *testing.T) {
	t.Parallel()
	base := streamRouter(t)
	post := func(t *testing.T, client *http.Client, body io.Reader, length int64) (*http.Response, []byte) {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, base+"/api/uploads", body)
		if err != nil {
			t.Fatal(err)
		}
		req.ContentLength = length // -1 sends it in chunks
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp, b
	}
	jsonBody := func(name string, text int) string {
		return `{"name":"` + name + `","text":"` + strings.Repeat("t", text) + `"}`
	}
	t.Run("a large body is read whole, and the connection serves the next request", func(t *testing.T) {
		t.Parallel()
		client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 1}}
		defer client.CloseIdleConnections()
		for _, size := range []int{10, 3 << 20, 100} {
			b := jsonBody("ann", size)
			resp, body := post(t, client, strings.NewReader(b), int64(len(b)))
			if resp.StatusCode != http.StatusOK || decode[uploaded](t, body) != (uploaded{Name: "ann", Size: size}) || resp.Close {
				t.Fatalf("status %d, close %v: %s", resp.StatusCode, resp.Close, body)
			}
		}
	})
	t.Run("a body sent in chunks is read whole", func(t *testing.T) {
		t.Parallel()
		resp, body := post(t, http.DefaultClient, strings.NewReader(jsonBody("cy", 1<<20)), -1)
		if resp.StatusCode != http.StatusOK || decode[uploaded](t, body).Size != 1<<20 {
			t.Fatalf("status %d: %s", resp.StatusCode, body)
		}
	})
	t.Run("a body sent in chunks is cut at the limit", func(t *testing.T) {
		t.Parallel()
		resp, body := post(t, http.DefaultClient, strings.NewReader(jsonBody("cy", streamLimit)), -1)
		wantProblem(t, resp, body, http.StatusRequestEntityTooLarge)
	})
	t.Run("a large value over its documented length is refused, naming it", func(t *testing.T) {
		t.Parallel()
		b := `{"text":"short","name":"` + strings.Repeat("n", 1<<20) + `"}`
		resp, body := post(t, http.DefaultClient, strings.NewReader(b), int64(len(b)))
		wantField(t, wantProblem(t, resp, body, http.StatusUnprocessableEntity), "name")
	})
	t.Run("a NUL deep in a large value is refused, naming it", func(t *testing.T) {
		t.Parallel()
		b := `{"name":"ann","text":"` + strings.Repeat("t", 1<<20) + `\u0000"}`
		resp, body := post(t, http.DefaultClient, strings.NewReader(b), int64(len(b)))
		wantField(t, wantProblem(t, resp, body, http.StatusUnprocessableEntity), "text")
	})
	t.Run("a large body with a member the document does not have is malformed", func(t *testing.T) {
		t.Parallel()
		b := `{"name":"` + strings.Repeat("n", 1<<20) + `","admin":true}`
		resp, body := post(t, http.DefaultClient, strings.NewReader(b), int64(len(b)))
		wantField(t, wantProblem(t, resp, body, http.StatusBadRequest), "admin")
	})
}

// endless is a body of n bytes that is never held in memory.
type endless struct{ left int64 }

func (e *endless) Read(p []byte) (int, error) {
	if e.left <= 0 {
		return 0, io.EOF
	}
	n := min(int64(len(p)), e.left)
	for i := range p[:n] {
		p[i] = 'x'
	}
	e.left -= n
	return int(n), nil
}

func TestAClientStillSendingItsBodyGetsTheAnswer(t *testing.T) {
	t.Parallel()
	base := streamRouter(t)
	const size = 3 << 20 // within the limit, but never read
	for range 3 {
		req, err := http.NewRequest(http.MethodPut, base+"/api/uploads/private", &endless{left: size})
		if err != nil {
			t.Fatal(err)
		}
		req.ContentLength = size
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("the client lost the answer: %v", err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		wantProblem(t, resp, body, http.StatusUnauthorized)
	}
}

// TestALargeAcceptedValueIsCopiedOnce sends a body whose one large string
// the document accepts, and counts the bytes the process allocates to
// serve it: the body, read once, and the value decoded once into the
// input; the document's check of the string holds no copy of its own. Not
// parallel: it reads the process's allocation counter.
func TestALargeAcceptedValueIsCopiedOnce(t *testing.T) {
	base := streamRouter(t)
	const size = 3 << 20 // within streamRouter's 4 MB limit
	send := func() {
		body := io.MultiReader(strings.NewReader(`{"name":"ann","text":"`), &endless{left: size}, strings.NewReader(`"}`))
		req, err := http.NewRequest(http.MethodPost, base+"/api/uploads", body)
		if err != nil {
			t.Fatal(err)
		}
		req.ContentLength = int64(len(`{"name":"ann","text":""}`) + size)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || decode[uploaded](t, got).Size != size {
			t.Fatalf("status %d: %s", resp.StatusCode, got)
		}
	}
	send() // warm up: connections, buffers, pools
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	send()
	runtime.ReadMemStats(&after)
	allocated := after.TotalAlloc - before.TotalAlloc
	if limit := uint64(size) * 5 / 2; allocated > limit {
		t.Fatalf("serving a %d MB value allocated %d MB, want at most %d MB (the body and the value, once each)", size>>20, allocated>>20, limit>>20)
	}
	t.Logf("serving a %d MB value allocated %d MB", size>>20, allocated>>20)
}

// TestTheServersBodyLimitIsExact sends bodies of exactly Config.BodyLimit
// bytes, and of one byte more, to a route whose limit is the server's: with
// their length declared and sent in chunks alike, the first is read and the
// second is a 413.
func TestTheServersBodyLimitIsExact(t *testing.T) {
	t.Parallel()
	base := streamRouter(t)
	empty := len(`{"name":"ann","text":""}`)
	for _, tc := range []struct {
		name    string
		size    int
		chunked bool
		status  int
	}{
		{"declared, exactly the limit", streamLimit, false, http.StatusOK},
		{"declared, a byte over", streamLimit + 1, false, http.StatusRequestEntityTooLarge},
		{"in chunks, exactly the limit", streamLimit, true, http.StatusOK},
		{"in chunks, a byte over", streamLimit + 1, true, http.StatusRequestEntityTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := `{"name":"ann","text":"` + strings.Repeat("t", tc.size-empty) + `"}`
			req, err := http.NewRequest(http.MethodPost, base+"/api/uploads", strings.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			if tc.chunked {
				req.ContentLength = -1
			}
			req.Header.Set("Content-Type", "application/json")
			// A connection of its own: a body sent in chunks cannot be sent
			// again on another when the server closes an idle one under it.
			client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			got, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			if tc.status != http.StatusOK {
				wantProblem(t, resp, got, tc.status)
				return
			}
			if resp.StatusCode != http.StatusOK || decode[uploaded](t, got).Size != tc.size-empty {
				t.Fatalf("a body of %d bytes where the limit is %d: status %d: %.200s", tc.size, streamLimit, resp.StatusCode, got)
			}
		})
	}
}

// TestABodyReadWithTheHeadersKeepsTheConnection refuses requests before
// their body is read (no token): a body the server read whole with the
// headers, up to 8 KB, leaves the connection serving the next request; a
// longer one, of which only the first 8 KB were read, closes it.
func TestABodyReadWithTheHeadersKeepsTheConnection(t *testing.T) {
	t.Parallel()
	base := streamRouter(t)
	for _, tc := range []struct {
		size  int
		close bool
	}{
		{0, false},
		{8 << 10, false},
		{8<<10 + 1, true},
	} {
		t.Run(fmt.Sprintf("%d bytes", tc.size), func(t *testing.T) {
			t.Parallel()
			head := fmt.Sprintf("PUT /api/uploads/private HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: %d\r\n", tc.size)
			resp, body := rawRequest(t, base, head, tc.size)
			if resp.StatusCode != http.StatusUnauthorized {
				t.Fatalf("status %d, want 401: %s", resp.StatusCode, body)
			}
			if resp.Close != tc.close {
				t.Errorf("a %d-byte body left unread: connection closed %v, want %v", tc.size, resp.Close, tc.close)
			}
		})
	}
}
