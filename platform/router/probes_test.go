package router_test

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/asapjs/fiber-template/platform/router"
)

// readiness is an extension whose readiness the test sets.
type readiness struct{ err error }

func (readiness) Name() string                       { return "schema" }
func (r readiness) CheckReady(context.Context) error { return r.err }

func TestProbes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		ext    readiness
		drain  bool
		path   string
		status int
		code   string
	}{
		{"livez answers 200 while the process serves", readiness{}, false, "/livez", http.StatusOK, ""},
		{"livez still answers 200 when a dependency is not ready", readiness{errors.New("pending")}, true, "/livez", http.StatusOK, ""},
		{"readyz answers 200 when every extension is ready", readiness{}, false, "/readyz", http.StatusOK, ""},
		{"readyz answers 503 while an extension is not ready", readiness{errors.New("pending")}, false, "/readyz", http.StatusServiceUnavailable, "not_ready"},
		{"readyz answers 503 once draining began", readiness{}, true, "/readyz", http.StatusServiceUnavailable, "shutting_down"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newRouter(t, router.Config{BasePath: "/api", Extensions: []router.Extension{tc.ext}})
			if tc.drain {
				r.Drain()
			}
			res, body := get(t, r, tc.path)
			if tc.status == http.StatusOK {
				if res.StatusCode != http.StatusOK || decode[router.ProbeStatus](t, body).Status != "ok" {
					t.Fatalf("status %d body %s, want 200 ok", res.StatusCode, body)
				}
				return
			}
			if p := wantProblem(t, res, body, tc.status); p.Code != tc.code {
				t.Errorf("code %q, want %q", p.Code, tc.code)
			}
			if res.Header.Get("Retry-After") == "" {
				t.Error("503 without Retry-After")
			}
		})
	}

	t.Run("the probes are never under the base path", func(t *testing.T) {
		t.Parallel()
		r := newRouter(t, router.Config{BasePath: "/api"})
		for _, p := range []string{"/api/livez", "/api/readyz"} {
			if res, _ := get(t, r, p); res.StatusCode != http.StatusNotFound {
				t.Errorf("GET %s = %d, want 404", p, res.StatusCode)
			}
		}
	})
}
