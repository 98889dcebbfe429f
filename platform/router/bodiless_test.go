package router_test

import (
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/asapjs/fiber-template/platform/openapi"
	"github.com/asapjs/fiber-template/platform/router"
)

// named is the body of the routes of bodilessRouter that declare one.
type named struct {
	Body struct {
		Name string `json:"name" validate:"required,max=20"`
	}
}

// renamed is the input of its route with a path parameter and a body.
type renamed struct {
	ID   int64 `path:"id"`
	Body struct {
		Name string `json:"name" validate:"required,max=20"`
	}
}

// thingID is the input of its routes that declare none.
type thingID struct {
	ID int64 `path:"id"`
}

// bodilessRouter serves every kind of route the router mounts: routes of
// the route model with and without a body, the built-ins (probes, JWKS,
// health check, root), the docs, the metrics and the developer tools.
func bodilessRouter(t *testing.T) *router.Router {
	t.Helper()
	ok := func(*router.Ctx, *thingID) (*router.NoContent, error) { return nil, nil }
	take := func(*router.Ctx, *named) (*router.NoContent, error) { return nil, nil }
	rename := func(*router.Ctx, *renamed) (*router.NoContent, error) { return nil, nil }
	return newRouter(t, router.Config{
		BasePath:    "/api",
		JWTSecret:   testSecret,
		Metrics:     prometheus.NewRegistry(),
		Extensions:  []router.Extension{newTools()},
		ReadTimeout: 8 * time.Second,
		IdleTimeout: time.Second,
		Controllers: []router.Controller{router.Group{Path: "/things", Declared: []router.Route{
			router.Post("/", take),
			router.Get("/:id", ok),
			router.Put("/:id", rename, router.Auth()),
			router.Delete("/:id", ok, router.Auth()),
			router.Post("/:id/touch", ok),
		}}},
	})
}

// TestNoRouteReadsABodyItDoesNotDeclare walks every route the router
// registered, and paths and methods it does not serve: a request with a
// body, of a declared length or in chunks, for any of them but a route
// that declares a body is a 413 problem (a method HTTP does not define, a
// 501; a path no route serves, a 404) answered while the body is still being sent (it is never read), on
// a connection closed after it (so no part of the body is taken for a
// request).
func TestNoRouteReadsABodyItDoesNotDeclare(t *testing.T) {
	t.Parallel()
	r := bodilessRouter(t)
	doc, err := r.Spec().Document()
	if err != nil {
		t.Fatal(err)
	}
	base := listen(t, r)

	// target is a request; status, when set, is its answer in place of
	// the 413 of a body no route takes.
	type target struct {
		method, path string
		status       int
	}
	var targets []target
	seen := map[string]bool{}
	for _, rt := range r.App().GetRoutes(true) {
		targets = append(targets, target{method: rt.Method, path: rt.Path})
		seen[rt.Method+" "+rt.Path] = true
	}
	for _, want := range []string{"GET /metrics", "GET /livez", "GET /readyz", "GET /.well-known/jwks.json",
		"GET /api/docs/spec-ui.html", "GET /api/docs/spec.json", "GET /api/sync", "GET /api/docs/generate-dbml"} {
		if !seen[want] {
			t.Fatalf("the router did not register %s: %v", want, targets)
		}
	}
	targets = append(targets,
		// A path no route serves is not found, its body unread too.
		target{method: http.MethodGet, path: "/api/nowhere", status: http.StatusNotFound},
		target{method: http.MethodPost, path: "/api/nowhere", status: http.StatusNotFound},
		target{method: http.MethodDelete, path: "/livez"},
		target{method: http.MethodPost, path: "/api/things/1"},
		target{method: http.MethodOptions, path: "/api/things"},
		target{method: http.MethodPost, path: "/api/things/", status: http.StatusNotFound},
		target{method: "BREW", path: "/livez", status: http.StatusNotImplemented},
	)

	for _, tg := range targets {
		path := paramRE.ReplaceAllString(tg.path, "1")
		declares := declaresBody(doc, tg.method, tg.path)
		for _, send := range []string{"", "chunked", "expect"} {
			name := strings.TrimSpace(tg.method + " " + path + " " + send)
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				var resp *http.Response
				var body string
				if send == "expect" {
					resp, body = sendExpectation(t, base, tg.method, path)
					if declares {
						// Asked first, a route that takes a body refuses
						// one over its limit before it is sent.
						if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(body, "larger than this route accepts") {
							t.Fatalf("status %d: %.200s, want the 413 of the route's limit", resp.StatusCode, body)
						}
						wantRefusedUnread(t, resp)
						return
					}
				} else {
					resp, body = sendBodyHead(t, base, tg.method, path, send == "chunked")
				}
				// The answer to HEAD has no body to tell why.
				undeclared := resp.StatusCode == http.StatusRequestEntityTooLarge &&
					(tg.method == http.MethodHead || strings.Contains(body, "which this method and path do not take"))
				switch {
				case declares:
					// Refused by its own checks, its content type or its
					// token, never for having a body.
					if resp.StatusCode != http.StatusUnsupportedMediaType && resp.StatusCode != http.StatusUnauthorized {
						t.Fatalf("a route that declares a body: status %d: %.200s, want 415 or 401", resp.StatusCode, body)
					}
				case tg.status != 0:
					if resp.StatusCode != tg.status {
						t.Fatalf("status %d: %.200s, want %d", resp.StatusCode, body, tg.status)
					}
				case !undeclared:
					t.Fatalf("status %d: %.200s, want the 413 of a body the route does not take", resp.StatusCode, body)
				}
				wantRefusedUnread(t, resp)
			})
		}
	}
}

// TestAnExpectedBodyWithinTheLimitIsInvited checks that a request that
// asks before sending a body its route takes is answered 100 Continue,
// then served once the body follows, on a connection that carries the
// next request; and that a compressed one is invited whatever its length.
func TestAnExpectedBodyWithinTheLimitIsInvited(t *testing.T) {
	t.Parallel()
	base := listen(t, bodilessRouter(t))
	const body = `{"name":"a"}`
	conn, br := pipeline(t, base, fmt.Sprintf("POST /api/things HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: %d\r\nExpect: 100-continue\r\n\r\n", len(body)))
	if resp, _ := readAnswer(t, br); resp.StatusCode != http.StatusContinue {
		t.Fatalf("status %d, want 100 Continue", resp.StatusCode)
	}
	if _, err := io.WriteString(conn, body+"GET /livez HTTP/1.1\r\nHost: test\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	if resp, got := readAnswer(t, br); resp.StatusCode != http.StatusNoContent || resp.Close {
		t.Fatalf("status %d (close %v): %s, want 204 on a connection kept open", resp.StatusCode, resp.Close, got)
	}
	if resp, got := readAnswer(t, br); resp.StatusCode != http.StatusOK {
		t.Fatalf("the next request: status %d: %s", resp.StatusCode, got)
	}

	// A compressed body's limit counts what it decompresses to, which
	// only the route can tell: however long it is declared, it is invited.
	_, br = pipeline(t, base, fmt.Sprintf("POST /api/things HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: %d\r\nExpect: 100-continue\r\n\r\n", 150<<20))
	if resp, got := readAnswer(t, br); resp.StatusCode != http.StatusContinue {
		t.Fatalf("a compressed body: status %d: %s, want 100 Continue", resp.StatusCode, got)
	}
}

// TestABodylessRequestStillGetsItsAnswer checks what refusing bodies must
// leave alone: a request without one, or with an empty one, is served, and
// a route that declares a body takes it.
func TestABodylessRequestStillGetsItsAnswer(t *testing.T) {
	t.Parallel()
	base := listen(t, bodilessRouter(t))
	cases := []struct {
		name, method, path, contentType, body string
		status                                int
	}{
		{"a probe without a body", http.MethodGet, "/livez", "", "", http.StatusOK},
		{"the metrics without a body", http.MethodGet, "/metrics", "", "", http.StatusOK},
		{"a route without a body, with Content-Length 0", http.MethodPost, "/api/things/1/touch", "application/json", "", http.StatusNoContent},
		{"a route with a body", http.MethodPost, "/api/things", "application/json", `{"name":"a"}`, http.StatusNoContent},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			resp, body := sendOverTCP(t, base, tc.method, tc.path, tc.contentType, tc.body)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d: %s, want %d", resp.StatusCode, body, tc.status)
			}
		})
	}
}

// paramRE finds the parameters of a Fiber route path.
var paramRE = regexp.MustCompile(`:[A-Za-z0-9_]+`)

// declaresBody reports whether the document gives the operation of method
// and Fiber path a request body; a route it does not document declares
// none.
func declaresBody(doc *openapi.Document, method, path string) bool {
	item := doc.Paths[paramRE.ReplaceAllStringFunc(path, func(p string) string { return "{" + p[1:] + "}" })]
	if item == nil {
		return false
	}
	ops := map[string]*openapi.Operation{fiber.MethodGet: item.Get, fiber.MethodPost: item.Post,
		fiber.MethodPut: item.Put, fiber.MethodPatch: item.Patch, fiber.MethodDelete: item.Delete}
	op := ops[method]
	return op != nil && op.RequestBody != nil
}

// sendExpectation sends the head of a request with a 150 MB body of type
// text/plain that asks before sending it (Expect: 100-continue), and
// returns the server's first answer: 100 Continue, or a final one that
// spares the client the body.
func sendExpectation(t *testing.T, base, method, path string) (*http.Response, string) {
	t.Helper()
	head := fmt.Sprintf("%s %s HTTP/1.1\r\nHost: test\r\nContent-Type: text/plain\r\nContent-Length: %d\r\nExpect: 100-continue\r\n", method, path, 150<<20)
	return rawRequest(t, base, head, 0)
}

// sendBodyHead sends a request with a 150 MB body of type text/plain
// (declared, or in chunks) and the first 64 KB of it, never the rest, and
// returns the answer the server gives meanwhile (see rawRequest).
func sendBodyHead(t *testing.T, base, method, path string, chunked bool) (*http.Response, string) {
	t.Helper()
	head := fmt.Sprintf("%s %s HTTP/1.1\r\nHost: test\r\nContent-Type: text/plain\r\n", method, path)
	if chunked {
		// The head ends here, and the line rawRequest ends is the size
		// of the one chunk, of which the 64 KB are the first.
		head += fmt.Sprintf("Transfer-Encoding: chunked\r\n\r\n%x", 150<<20)
	} else {
		head += fmt.Sprintf("Content-Length: %d\r\n", 150<<20)
	}
	return rawRequest(t, base, head, 64<<10)
}
