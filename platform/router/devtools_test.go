package router_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/asapjs/fiber-template/platform/openapi"
	"github.com/asapjs/fiber-template/platform/problem"
	"github.com/asapjs/fiber-template/platform/router"
	"github.com/asapjs/fiber-template/platform/servicetest"
)

// fakeTools stands in for the database extension.
type fakeTools struct {
	name   string
	report router.SyncReport
	dbml   string
	err    error
	syncs  atomic.Int32
}

func (f *fakeTools) Name() string {
	if f.name == "" {
		return "fake-database"
	}
	return f.name
}

func (f *fakeTools) Sync(context.Context) (router.SyncReport, error) {
	f.syncs.Add(1)
	return f.report, f.err
}

func (f *fakeTools) DBML(context.Context) (string, error) { return f.dbml, f.err }

func newTools() *fakeTools {
	return &fakeTools{
		report: router.SyncReport{Created: []string{"authors"}, Existing: []string{"books"}},
		dbml:   "Table authors {\n  id INTEGER [pk]\n}\n",
	}
}

func basicAuth(user, password string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+password))
}

func TestDevTools(t *testing.T) {
	t.Parallel()
	users := map[string]string{"dev": "s3cret"}
	tests := []struct {
		name       string
		cfg        router.Config
		auth       string
		wantSync   int
		wantDBML   int
		wantCalled bool
	}{
		{"both tools answer outside production", router.Config{}, "", http.StatusOK, http.StatusOK, true},
		{"sync is not mounted in production", router.Config{Production: true}, "", http.StatusNotFound, http.StatusOK, false},
		{"sync is mounted in production when enabled", router.Config{Production: true, EnableSyncInProduction: true}, "", http.StatusOK, http.StatusOK, true},
		{"docs auth refuses a request without credentials", router.Config{APIDocs: router.APIDocs{UseAuth: true, Users: users}}, "", http.StatusUnauthorized, http.StatusUnauthorized, false},
		{"docs auth refuses wrong credentials", router.Config{APIDocs: router.APIDocs{UseAuth: true, Users: users}}, basicAuth("dev", "guess"), http.StatusUnauthorized, http.StatusUnauthorized, false},
		{"docs auth lets valid credentials through", router.Config{APIDocs: router.APIDocs{UseAuth: true, Users: users}}, basicAuth("dev", "s3cret"), http.StatusOK, http.StatusOK, true},
		{"docs auth guards sync enabled in production", router.Config{Production: true, EnableSyncInProduction: true, APIDocs: router.APIDocs{UseAuth: true, Users: users}}, "", http.StatusUnauthorized, http.StatusUnauthorized, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tools := newTools()
			cfg := tt.cfg
			cfg.BasePath = "/api"
			cfg.Extensions = []router.Extension{tools}
			cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
			r := newRouter(t, cfg)

			for _, c := range []struct {
				path string
				want int
			}{{"/api/sync", tt.wantSync}, {"/api/docs/generate-dbml", tt.wantDBML}} {
				req := httptest.NewRequest(http.MethodGet, c.path, nil)
				if tt.auth != "" {
					req.Header.Set("Authorization", tt.auth)
				}
				resp, body := do(t, r, req)
				if resp.StatusCode != c.want {
					t.Fatalf("GET %s = %d, want %d; body %s", c.path, resp.StatusCode, c.want, body)
				}
				if c.want == http.StatusUnauthorized {
					if got := resp.Header.Get("WWW-Authenticate"); got != `Basic realm="Developer"` {
						t.Errorf("GET %s WWW-Authenticate = %q", c.path, got)
					}
				}
			}
			if called := tools.syncs.Load() > 0; called != tt.wantCalled {
				t.Errorf("Sync called = %v, want %v", called, tt.wantCalled)
			}
		})
	}
}

func TestDevToolsAnswers(t *testing.T) {
	t.Parallel()

	t.Run("sync answers the report as JSON with empty lists, never null", func(t *testing.T) {
		t.Parallel()
		tools := newTools()
		r := newRouter(t, router.Config{Extensions: []router.Extension{tools}})
		resp, body := get(t, r, "/sync")
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
			t.Fatalf("GET /sync = %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		var got map[string]json.RawMessage
		if err := json.Unmarshal(body, &got); err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"created": `["authors"]`, "existing": `["books"]`, "created_indexes": `[]`}
		for k, v := range want {
			if string(got[k]) != v {
				t.Errorf("%s = %s, want %s", k, got[k], v)
			}
		}
	})

	t.Run("generate-dbml answers plain UTF-8 text", func(t *testing.T) {
		t.Parallel()
		tools := newTools()
		r := newRouter(t, router.Config{BasePath: "/v1", Extensions: []router.Extension{tools}})
		resp, body := get(t, r, "/v1/docs/generate-dbml")
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("status %d", resp.StatusCode)
		}
		if ct := resp.Header.Get("Content-Type"); ct != "text/plain; charset=utf-8" {
			t.Errorf("Content-Type = %q", ct)
		}
		if string(body) != tools.dbml {
			t.Errorf("body = %q, want %q", body, tools.dbml)
		}
	})

	t.Run("a failing tool answers a 500 problem and logs the cause", func(t *testing.T) {
		t.Parallel()
		tools := newTools()
		tools.err = errors.New("disk on fire")
		var logs servicetest.Buffer
		r := newRouter(t, router.Config{Extensions: []router.Extension{tools}, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
		for _, path := range []string{"/sync", "/docs/generate-dbml"} {
			resp, body := get(t, r, path)
			p := wantProblem(t, resp, body, http.StatusInternalServerError)
			if strings.Contains(p.Detail, "disk on fire") {
				t.Errorf("GET %s leaks the cause: %q", path, p.Detail)
			}
		}
		if !strings.Contains(logs.String(), "disk on fire") {
			t.Errorf("the cause is not logged: %s", logs.String())
		}
	})

	t.Run("without database tools both routes are 404 and the health check says not configured", func(t *testing.T) {
		t.Parallel()
		r := newRouter(t, router.Config{BasePath: "/api"})
		for _, path := range []string{"/api/sync", "/api/docs/generate-dbml"} {
			resp, body := get(t, r, path)
			wantProblem(t, resp, body, http.StatusNotFound)
		}
		resp, body := get(t, r, "/health-check")
		if got := decode[router.HealthStatus](t, body); resp.StatusCode != http.StatusOK || got.Database != "not configured" {
			t.Errorf("health check = %d %+v", resp.StatusCode, got)
		}
	})

	t.Run("the tools stay out of the spec", func(t *testing.T) {
		t.Parallel()
		r := newRouter(t, router.Config{Extensions: []router.Extension{newTools()}})
		if s := string(r.SpecJSON()); strings.Contains(s, "/sync") || strings.Contains(s, "generate-dbml") {
			t.Errorf("the spec documents a developer tool: %s", s)
		}
	})
}

func TestDevToolsStartUp(t *testing.T) {
	t.Parallel()

	t.Run("two extensions with database tools fail New", func(t *testing.T) {
		t.Parallel()
		_, err := router.New(router.Config{Extensions: []router.Extension{newTools(), &fakeTools{name: "other"}}})
		if err == nil || !strings.Contains(err.Error(), "both offer database tools") {
			t.Fatalf("New = %v, want an error naming both", err)
		}
	})

	t.Run("a controller route on the sync path fails New", func(t *testing.T) {
		t.Parallel()
		_, err := router.New(router.Config{
			Extensions: []router.Extension{newTools()},
			Controllers: []router.Controller{router.Group{Path: "/sync", Declared: []router.Route{
				router.Get("/", func(*router.Ctx, *struct{}) (*thing, error) { return &thing{}, nil }),
			}}},
		})
		if err == nil || !strings.Contains(err.Error(), "GET /sync") {
			t.Fatalf("New = %v, want a duplicate route error", err)
		}
	})
}

func TestDeclaredErrorsAreCollectedFromTheRoutes(t *testing.T) {
	t.Parallel()
	errTaken := problem.Declare(http.StatusConflict, "email_taken", "Email taken")
	declaring := func(errs ...*problem.Error) router.Controller {
		return router.Group{Path: "/things", Declared: []router.Route{
			router.Get("/", func(*router.Ctx, *struct{}) (*thing, error) { return &thing{}, nil }, router.Errors(errs[0])),
			router.Post("/", func(*router.Ctx, *struct{}) (*thing, error) { return &thing{}, nil }, router.Errors(errs[1:]...), router.Auth()),
		}}
	}

	t.Run("the routes' errors are enough for the problem schema and the code enum", func(t *testing.T) {
		t.Parallel()
		r := newRouter(t, router.Config{JWTSecret: testSecret, Controllers: []router.Controller{declaring(errThingNotFound, errTaken, errTaken)}})
		doc, err := r.Spec().Document()
		if err != nil {
			t.Fatal(err)
		}
		if doc.Components.Schemas["Problem"] == nil {
			t.Fatalf("no Problem schema in %s", r.SpecJSON())
		}
		codes := doc.Components.Schemas[openapi.ProblemCodeSchema]
		if codes == nil {
			t.Fatalf("no %s schema in %s", openapi.ProblemCodeSchema, r.SpecJSON())
		}
		got, _ := json.Marshal(codes.Enum)
		// The router's own: database_unavailable (health check),
		// unauthorized (auth routes), request_timeout,
		// service_unavailable, headers_too_large and
		// request_read_timeout (every route).
		if want := `["database_unavailable","email_taken","headers_too_large","not_ready","request_read_timeout","request_timeout","service_unavailable","shutting_down","thing_not_found","unauthorized"]`; string(got) != want {
			t.Errorf("enum = %s, want %s", got, want)
		}
		if !strings.Contains(codes.Description, "`email_taken` (409): Email taken") {
			t.Errorf("description %q does not list email_taken", codes.Description)
		}
	})

	t.Run("two errors with one code and another status fail New", func(t *testing.T) {
		t.Parallel()
		other := problem.Declare(http.StatusGone, "email_taken", "Email taken")
		_, err := router.New(router.Config{JWTSecret: testSecret, Controllers: []router.Controller{declaring(errTaken, other)}})
		if err == nil || !strings.Contains(err.Error(), "email_taken") {
			t.Fatalf("New = %v, want an error naming the code", err)
		}
	})
}
