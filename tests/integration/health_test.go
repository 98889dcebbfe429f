package integration

import (
	"net/http"
	"testing"
	"time"

	"github.com/asapjs/fiber-template/platform/router"
	"github.com/asapjs/fiber-template/tests/integration/pgtest"
)

func TestHealthCheck(t *testing.T) {
	t.Parallel()
	for _, b := range backends() {
		t.Run("answers ok on "+b.name, func(t *testing.T) {
			t.Parallel()
			r := newService(t, b.dsn(t), router.Config{BasePath: "/api"})
			send(t, r, http.MethodGet, "/health-check", nil).
				wantJSON(t, map[string]any{"status": "ok", "database": "ok"})
		})
	}
}

func TestRootMessage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		cfg  router.Config
		path string
		want string
	}{
		{"it answers at the base path", router.Config{BasePath: "/api"}, "/api", "api is running"},
		{"with an empty base path it answers at /", router.Config{BasePath: ""}, "/", "api is running"},
		{"it names the service", router.Config{Name: "shop", BasePath: "/v1"}, "/v1", "shop is running"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := newService(t, inMemory, tt.cfg)
			send(t, r, http.MethodGet, tt.path, nil).wantJSON(t, map[string]any{"message": tt.want})
		})
	}
}

// TestHealthCheckFollowsTheDatabase stops the controlled PostgreSQL server,
// which may be the shared one, so it must not run in parallel with the tests
// that use it.
func TestHealthCheckFollowsTheDatabase(t *testing.T) {
	r := newService(t, pgtest.NewControlledDatabase(t), router.Config{BasePath: "/api", HealthTimeout: 2 * time.Second})
	healthy := map[string]any{"status": "ok", "database": "ok"}

	t.Run("it answers ok while the database runs", func(t *testing.T) {
		send(t, r, http.MethodGet, "/health-check", nil).wantJSON(t, healthy)
	})

	pgtest.Stop(t)
	t.Run("it answers a 503 problem without driver details once the database is down", func(t *testing.T) {
		res := send(t, r, http.MethodGet, "/health-check", nil)
		p := res.wantProblem(t, http.StatusServiceUnavailable)
		if p.Code != "database_unavailable" {
			t.Errorf("problem code %q, want database_unavailable", p.Code)
		}
		res.wantHidden(t, "pq:", "pgx", "pgconn", "connection refused", "dial", "SQLSTATE", "127.0.0.1", "postgres://")
	})

	pgtest.Start(t)
	t.Run("it answers ok again once the database is back, with the same pool", func(t *testing.T) {
		// The pool may hold connections the restart broke; database/sql
		// retires them, so a few requests at most may still fail.
		deadline := time.Now().Add(10 * time.Second)
		res := send(t, r, http.MethodGet, "/health-check", nil)
		for res.status != http.StatusOK && time.Now().Before(deadline) {
			time.Sleep(100 * time.Millisecond)
			res = send(t, r, http.MethodGet, "/health-check", nil)
		}
		res.wantJSON(t, healthy)
	})
}
