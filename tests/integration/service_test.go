package integration

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"mime"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/app"
	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/problem"
	"github.com/asapjs/fiber-template/platform/router"
	"github.com/asapjs/fiber-template/platform/servicetest"
	"github.com/asapjs/fiber-template/tests/integration/pgtest"
)

// inMemory is the database of tests whose routes never touch one: they run
// even where no PostgreSQL is available.
const inMemory = "sqlite::memory:"

// backend is a database the service can run on, as a DSN made for one test.
type backend struct {
	name string
	dsn  func(t *testing.T) string
}

// backends lists the databases the database-facing suites run against.
func backends() []backend {
	return []backend{
		{"a fresh PostgreSQL database", func(t *testing.T) string { return pgtest.NewDatabase(t) }},
		{"a SQLite file named with sqlite:", func(t *testing.T) string { return "sqlite:" + filepath.Join(t.TempDir(), "app.db") }},
		{"a SQLite file named with file:", func(t *testing.T) string { return "file:" + filepath.Join(t.TempDir(), "app.db") }},
		{"an in-memory SQLite database", func(*testing.T) string { return inMemory }},
	}
}

// newService opens the database at dsn and builds the service on it, as
// cmd/api does; the database is closed when t ends. Unless cfg has a
// logger, the service logs to t's output.
func newService(t *testing.T, dsn string, cfg router.Config) *router.Router {
	t.Helper()
	db := openDB(t, dsn)
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(t.Output(), nil))
	}
	r, err := app.New(db, cfg)
	if err != nil {
		t.Fatalf("build service: %v", err)
	}
	return r
}

// openDB opens the database at dsn; it is closed when t ends.
func openDB(t *testing.T, dsn string) *bun.DB {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	db, err := database.Open(ctx, dsn)
	if err != nil {
		t.Fatalf("open database: %v", err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Errorf("close database: %v", err)
		}
	})
	return db
}

// response is an answer of the service, read in full.
type response struct {
	status int
	header http.Header
	body   []byte
}

// send runs one request through the service's HTTP server, in process.
func send(t *testing.T, r *router.Router, method, path string, body []byte) response {
	t.Helper()
	req := httptest.NewRequest(method, path, bytes.NewReader(body))
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return do(t, r, req)
}

// do runs req through the service's HTTP server, in process, and reads the
// answer in full.
func do(t *testing.T, r *router.Router, req *http.Request) response {
	t.Helper()
	res := servicetest.Do(t, r.App(), req)
	return response{status: res.Status, header: res.Header, body: res.Body}
}

// serve runs the service on a loopback port until t ends and returns its
// base URL, for what only a real connection shows: fasthttp answers an
// oversized body before the application sees it, and App().Test reports
// that as an error rather than the answer.
func serve(t *testing.T, r *router.Router) string {
	t.Helper()
	return servicetest.ServeWith(t, r.App(), r.Serve)
}

// fetch sends one request to the service running at base.
func fetch(t *testing.T, base, method, path string, body []byte) response {
	t.Helper()
	req, err := http.NewRequest(method, base+path, bytes.NewReader(body))
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res := servicetest.Fetch(t, req)
	return response{status: res.Status, header: res.Header, body: res.Body}
}

// mediaType is the response's media type without parameters.
func (res response) mediaType(t *testing.T) string {
	t.Helper()
	mt, _, err := mime.ParseMediaType(res.header.Get("Content-Type"))
	if err != nil {
		t.Fatalf("Content-Type %q: %v", res.header.Get("Content-Type"), err)
	}
	return mt
}

// wantJSON checks a 200 JSON answer whose body equals want, key for key.
func (res response) wantJSON(t *testing.T, want map[string]any) {
	t.Helper()
	if res.status != http.StatusOK {
		t.Fatalf("status %d, want 200; body %s", res.status, res.body)
	}
	if mt := res.mediaType(t); mt != "application/json" {
		t.Errorf("media type %q, want application/json", mt)
	}
	var got map[string]any
	if err := json.Unmarshal(res.body, &got); err != nil {
		t.Fatalf("decode body %s: %v", res.body, err)
	}
	if len(got) != len(want) {
		t.Errorf("body %s, want %v", res.body, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("body %s: %q is %v, want %v", res.body, k, got[k], v)
		}
	}
}

// wantProblem checks a problem details answer with one of the statuses and
// returns it.
func (res response) wantProblem(t *testing.T, statuses ...int) problem.Problem {
	t.Helper()
	return servicetest.WantProblem(t, res.status, res.header, res.body, statuses...)
}

// wantHidden fails t if the body holds any of the words, case aside:
// internals a client must never see.
func (res response) wantHidden(t *testing.T, words ...string) {
	t.Helper()
	lower := strings.ToLower(string(res.body))
	for _, w := range words {
		if strings.Contains(lower, strings.ToLower(w)) {
			t.Errorf("body %s reveals %q", res.body, w)
		}
	}
}
