package router_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/asapjs/fiber-template/platform/problem"
	"github.com/asapjs/fiber-template/platform/router"
	"github.com/asapjs/fiber-template/platform/servicetest"
)

var errThingNotFound = problem.Declare(http.StatusNotFound, "thing_not_found", "Thing not found")

type thing struct {
	ID int64 `json:"id"`
}

type failingHealth struct{ err error }

func (f failingHealth) Name() string                          { return "fake-db" }
func (f failingHealth) CheckHealth(ctx context.Context) error { return f.err }

func TestErrorsBecomeProblemDetails(t *testing.T) {
	t.Parallel()
	logs := &servicetest.Buffer{}
	r := newRouter(t, router.Config{
		BasePath:  "/api",
		BodyLimit: 1024,
		Logger:    slog.New(slog.NewTextHandler(logs, nil)),
		Controllers: []router.Controller{router.Group{Path: "/things", Declared: []router.Route{
			router.Get("/:id", func(c *router.Ctx, in *struct {
				ID int64 `path:"id"`
			}) (*thing, error) {
				if in.ID == 1 {
					return &thing{ID: 1}, nil
				}
				return nil, errThingNotFound.WithDetail("no thing with id %d", in.ID)
			}, router.Errors(errThingNotFound)),
			router.Get("/boom/panic", func(c *router.Ctx, _ *struct{}) (*thing, error) {
				panic("pq: secret-internal-detail at /srv/app/main.go")
			}),
			router.Get("/boom/error", func(c *router.Ctx, _ *struct{}) (*thing, error) {
				return nil, errors.New(`pq: relation "users" does not exist SELECT * FROM users`)
			}),
			router.Post("/", func(c *router.Ctx, in *struct{ Body thing }) (*thing, error) { return &in.Body, nil }),
		}}},
	})

	t.Run("a declared error answers its status, code and detail", func(t *testing.T) {
		resp, body := get(t, r, "/api/things/2")
		p := wantProblem(t, resp, body, http.StatusNotFound)
		if p.Code != "thing_not_found" || p.Title != "Thing not found" || p.Detail != "no thing with id 2" {
			t.Fatalf("problem %+v", p)
		}
	})
	internal := []string{"pq:", "secret-internal-detail", "goroutine", "main.go", "SELECT", "relation"}
	for _, target := range []string{"/api/things/boom/panic", "/api/things/boom/error"} {
		t.Run(target+" is a 500 with nothing internal, logged with a request id", func(t *testing.T) {
			resp, body := get(t, r, target)
			wantProblem(t, resp, body, http.StatusInternalServerError)
			for _, s := range internal {
				if bytes.Contains(body, []byte(s)) {
					t.Fatalf("body leaks %q: %s", s, body)
				}
			}
			id := resp.Header.Get("X-Request-ID")
			if id == "" || !strings.Contains(logs.String(), id) || !bytes.Contains(body, []byte(id)) {
				t.Fatalf("request id %q missing from the log or the body; log:\n%s", id, logs.String())
			}
		})
	}
	statuses := []struct {
		name, method, target, body string
		status                     int
	}{
		{"an unknown route is a 404", http.MethodGet, "/api/nowhere", "", http.StatusNotFound},
		{"a path outside the base path is a 404", http.MethodGet, "/things/1", "", http.StatusNotFound},
		{"a wrong method is a 405", http.MethodDelete, "/api/things/1", "", http.StatusMethodNotAllowed},
		{"a body over the limit is a 413", http.MethodPost, "/api/things", `{"id":1,"pad":"` + strings.Repeat("x", 4096) + `"}`, http.StatusRequestEntityTooLarge},
	}
	base := listen(t, r)
	for _, tc := range statuses {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := sendOverTCP(t, base, tc.method, tc.target, "application/json", tc.body)
			wantProblem(t, resp, body, tc.status)
		})
	}
}

func TestBuiltins(t *testing.T) {
	t.Parallel()
	t.Run("the root message is served at the base path", func(t *testing.T) {
		r := newRouter(t, router.Config{Name: "shop", BasePath: "/api"})
		resp, body := get(t, r, "/api")
		if resp.StatusCode != 200 || decode[router.RootMessage](t, body).Message != "shop is running" {
			t.Fatalf("status %d body %s", resp.StatusCode, body)
		}
	})
	t.Run("an empty base path serves the root message at /", func(t *testing.T) {
		r := newRouter(t, router.Config{Name: "shop"})
		resp, body := get(t, r, "/")
		if resp.StatusCode != 200 || decode[router.RootMessage](t, body).Message != "shop is running" {
			t.Fatalf("status %d body %s", resp.StatusCode, body)
		}
	})
	t.Run("the health check is never prefixed and says when no database is configured", func(t *testing.T) {
		r := newRouter(t, router.Config{BasePath: "/api"})
		resp, body := get(t, r, "/health-check")
		if got := decode[router.HealthStatus](t, body); resp.StatusCode != 200 || got != (router.HealthStatus{Status: "ok", Database: "not configured"}) {
			t.Fatalf("status %d body %s", resp.StatusCode, body)
		}
	})
	t.Run("a failing database is a 503 without its error text", func(t *testing.T) {
		logs := &servicetest.Buffer{}
		r := newRouter(t, router.Config{
			Extensions: []router.Extension{failingHealth{errors.New("dial tcp 10.0.0.1:5432: connection refused")}},
			Logger:     slog.New(slog.NewTextHandler(logs, nil)),
		})
		resp, body := get(t, r, "/health-check")
		wantProblem(t, resp, body, http.StatusServiceUnavailable)
		if bytes.Contains(body, []byte("dial")) || !strings.Contains(logs.String(), "connection refused") {
			t.Fatalf("body %s; log %s", body, logs.String())
		}
	})
	t.Run("a CORS preflight allows the headers of conditional and idempotent requests", func(t *testing.T) {
		r := newRouter(t, router.Config{BasePath: "/api"})
		req := httptest.NewRequest(http.MethodOptions, "/api", nil)
		req.Header.Set("Origin", "https://app.example.com")
		req.Header.Set("Access-Control-Request-Method", "PATCH")
		req.Header.Set("Access-Control-Request-Headers", "authorization, content-type, if-match, if-none-match, idempotency-key")
		resp, _ := do(t, r, req)
		allowed := strings.ToLower(resp.Header.Get("Access-Control-Allow-Headers"))
		if resp.StatusCode != http.StatusNoContent {
			t.Fatalf("status %d", resp.StatusCode)
		}
		for _, h := range []string{"authorization", "content-type", "if-match", "if-none-match", "idempotency-key"} {
			if !strings.Contains(allowed, h) {
				t.Errorf("allowed headers %q lack %s", allowed, h)
			}
		}
	})
	t.Run("a cross-origin script may read the headers the routes answer with", func(t *testing.T) {
		r := newRouter(t, router.Config{BasePath: "/api"})
		req := httptest.NewRequest(http.MethodGet, "/api", nil)
		req.Header.Set("Origin", "https://app.example.com")
		resp, _ := do(t, r, req)
		exposed := strings.ToLower(resp.Header.Get("Access-Control-Expose-Headers"))
		for _, h := range []string{"etag", "link", "location", "retry-after", "idempotent-replayed", "ratelimit-remaining", "x-request-id"} {
			if !strings.Contains(exposed, h) {
				t.Errorf("exposed headers %q lack %s", exposed, h)
			}
		}
	})
}

func TestBadDeclarationsFailAtStartUp(t *testing.T) {
	t.Parallel()
	noop := func(c *router.Ctx, in *struct{}) (*thing, error) { return nil, nil }
	cases := []struct {
		name   string
		routes []router.Route
		want   []string
	}{
		{"a path parameter without a field", []router.Route{router.Get("/:id", noop)}, []string{"GET /t/:id", ":id"}},
		{"a path field without a parameter", []router.Route{router.Get("/", func(c *router.Ctx, in *struct {
			ID int `path:"id"`
		}) (*thing, error) {
			return nil, nil
		})}, []string{"GET /t", "id"}},
		{"an unsupported field type", []router.Route{router.Get("/", func(c *router.Ctx, in *struct {
			C chan int `query:"c"`
		}) (*thing, error) {
			return nil, nil
		})}, []string{"GET /t", "chan int"}},
		{"a duplicate route", []router.Route{router.Get("/a", noop), router.Get("/a/", noop), router.Get("/a", noop)}, []string{"GET /t/a duplicates GET /t/a"}},
		{"a duplicate route with other parameter names", []router.Route{
			router.Get("/:id", func(c *router.Ctx, in *struct {
				ID int `path:"id"`
			}) (*thing, error) {
				return nil, nil
			}),
			router.Get("/:name", func(c *router.Ctx, in *struct {
				Name string `path:"name"`
			}) (*thing, error) {
				return nil, nil
			}),
		}, []string{"GET /t/:name duplicates GET /t/:id"}},
		{"a non-2xx success status", []router.Route{router.Get("/", noop, router.Status(302))}, []string{"GET /t", "302"}},
		{"a success status just below 2xx", []router.Route{router.Get("/", noop, router.Status(199))}, []string{"GET /t", "199"}},
		{"a success status just above 2xx", []router.Route{router.Get("/", noop, router.Status(300))}, []string{"GET /t", "300"}},
		{"an unknown body media type", []router.Route{router.Post("/", noop, router.BodyContentType("text/csv"))}, []string{"POST /t", "text/csv"}},
	}
	for _, tc := range cases {
		t.Run(tc.name+" is an error naming the route", func(t *testing.T) {
			_, err := router.New(router.Config{Controllers: []router.Controller{router.Group{Path: "/t", Declared: tc.routes}}})
			if err == nil {
				t.Fatal("router.New succeeded")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Fatalf("err %q does not mention %q", err, w)
				}
			}
		})
	}
	t.Run("the first and last 2xx are success statuses", func(t *testing.T) {
		routes := []router.Route{router.Get("/first", noop, router.Status(200)), router.Get("/last", noop, router.Status(299))}
		if _, err := router.New(router.Config{Controllers: []router.Controller{router.Group{Path: "/t", Declared: routes}}}); err != nil {
			t.Fatalf("router.New: %v", err)
		}
	})
	t.Run("a base path with a trailing slash is rejected", func(t *testing.T) {
		if _, err := router.New(router.Config{BasePath: "/api/"}); err == nil {
			t.Fatal("router.New succeeded")
		}
	})
}

func TestRequestIDs(t *testing.T) {
	t.Parallel()
	r := newRouter(t, router.Config{})
	idOf := func(incoming string) string {
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		if incoming != "" {
			req.Header.Set("X-Request-ID", incoming)
		}
		resp, _ := do(t, r, req)
		return resp.Header.Get("X-Request-ID")
	}
	a, b := idOf(""), idOf("")
	if a == "" || b == "" || a == b {
		t.Fatalf("generated ids %q and %q are not unique", a, b)
	}
	if got := idOf("trace-42.a_b:c"); got != "trace-42.a_b:c" {
		t.Fatalf("a safe incoming id was replaced by %q", got)
	}
	for _, bad := range []string{"has space", strings.Repeat("x", 65), "new\u2028line", "<script>"} {
		if got := idOf(bad); got == bad || got == "" {
			t.Fatalf("an unsafe incoming id %q was echoed as %q", bad, got)
		}
	}
}

func TestRequestLog(t *testing.T) {
	t.Parallel()
	logs := &servicetest.Buffer{}
	r := newRouter(t, router.Config{
		LogRequests: true,
		Logger:      slog.New(slog.NewTextHandler(logs, nil)),
		Controllers: []router.Controller{router.Group{Path: "/l", Declared: []router.Route{
			router.Get("/ok", func(c *router.Ctx, _ *struct{}) (*thing, error) { return &thing{ID: 1}, nil }),
			router.Get("/gone", func(c *router.Ctx, _ *struct{}) (*thing, error) { return nil, errThingNotFound }),
			router.Get("/panic", func(c *router.Ctx, _ *struct{}) (*thing, error) { panic("boom") }),
		}}},
	})
	cases := []struct {
		target string
		status int
	}{
		{"/l/ok", 200},
		{"/l/gone", 404},
		{"/l/panic", 500},
		{"/l/nowhere", 404},
	}
	for _, tc := range cases {
		resp, body := get(t, r, tc.target)
		if resp.StatusCode != tc.status {
			t.Fatalf("%s: status %d: %s", tc.target, resp.StatusCode, body)
		}
		want := fmt.Sprintf("msg=request method=GET path=%s status=%d", tc.target, tc.status)
		if !strings.Contains(logs.String(), want) || !strings.Contains(logs.String(), "request_id="+resp.Header.Get("X-Request-ID")) {
			t.Fatalf("the request log lacks %q with the request id; log:\n%s", want, logs.String())
		}
	}
	// Without tracing there is no trace to name.
	if strings.Contains(logs.String(), "trace_id") {
		t.Errorf("an untraced request's log line names a trace: %s", logs.String())
	}
}

func TestTheBuiltinsAreClaimedLikeEveryRoute(t *testing.T) {
	t.Parallel()
	group := func(path string) router.Controller {
		return router.Group{Path: "", Declared: []router.Route{
			router.Get(path, func(*router.Ctx, *struct{}) (*router.NoContent, error) { return nil, nil }),
		}}
	}
	cases := []struct {
		name string
		cfg  router.Config
		want string
	}{
		{"a controller route on the health check", router.Config{Controllers: []router.Controller{group("/health-check")}}, "GET /health-check"},
		{"a controller route on the root", router.Config{BasePath: "/api", Controllers: []router.Controller{group("/")}}, "GET /api"},
		{"a controller route on spec.json", router.Config{BasePath: "/api", Controllers: []router.Controller{group("/docs/spec.json")}}, "which the docs UI and spec.json own"},
		{"a controller route under the docs", router.Config{Controllers: []router.Controller{group("/docs/x")}}, "which the docs UI and spec.json own"},
		{"docs auth without users, which would fail open", router.Config{APIDocs: router.APIDocs{UseAuth: true}}, "APIDocs.Users is empty"},
	}
	for _, tc := range cases {
		t.Run(tc.name+" fails start-up", func(t *testing.T) {
			t.Parallel()
			tc.cfg.Logger = slog.New(slog.DiscardHandler)
			_, err := router.New(tc.cfg)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("New = %v, want an error mentioning %q", err, tc.want)
			}
		})
	}
}

func TestPathsAreExact(t *testing.T) {
	t.Parallel()
	r := versionedRouter(t)
	if resp, _ := get(t, r, "/things/1"); resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /things/1: status %d", resp.StatusCode)
	}
	for _, target := range []string{"/Things/1", "/THINGS/1", "/things/1/", "/things/", "/things//1"} {
		resp, body := get(t, r, target)
		wantProblem(t, resp, body, http.StatusNotFound)
	}
}

func TestUnknownMethodsAreNotImplemented(t *testing.T) {
	t.Parallel()
	r := versionedRouter(t)
	for _, method := range []string{"FOO", "get", "Post", "PROPFIND"} {
		req := httptest.NewRequest(method, "/things/1", nil)
		resp, body := do(t, r, req)
		wantProblem(t, resp, body, http.StatusNotImplemented)
		if resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: the 501 lacks the security headers: %v", method, resp.Header)
		}
	}
	// A method HTTP has but the route lacks is still a 405.
	resp, body := do(t, r, httptest.NewRequest(http.MethodPost, "/things/1", nil))
	wantProblem(t, resp, body, http.StatusMethodNotAllowed)
}
