package router_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/asapjs/fiber-template/platform/problem"
	"github.com/asapjs/fiber-template/platform/router"
	"github.com/asapjs/fiber-template/platform/servicetest"
)

// newRouter builds a router or fails the test.
func newRouter(t *testing.T, cfg router.Config) *router.Router {
	t.Helper()
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	r, err := router.New(cfg)
	if err != nil {
		t.Fatalf("router.New: %v", err)
	}
	return r
}

// do sends one request through the application and returns the response and
// its body.
func do(t *testing.T, r *router.Router, req *http.Request) (*http.Response, []byte) {
	t.Helper()
	res := servicetest.Do(t, r.App(), req)
	return &http.Response{StatusCode: res.Status, Header: res.Header}, res.Body
}

// listen serves r on a loopback port for the cases fasthttp answers while
// reading the request, before app.Test could see a response.
func listen(t *testing.T, r *router.Router) string {
	t.Helper()
	return servicetest.ServeWith(t, r.App(), r.Serve)
}

// sendOverTCP sends one request over a real connection.
func sendOverTCP(t *testing.T, base, method, target, contentType, body string) (*http.Response, []byte) {
	t.Helper()
	return sendReaderOverTCP(t, base, method, target, contentType, strings.NewReader(body))
}

// sendReaderOverTCP sends one request over a real connection; a body that
// is not a *strings.Reader (or another reader of known length) is sent in
// chunks.
func sendReaderOverTCP(t *testing.T, base, method, target, contentType string, body io.Reader) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, base+target, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", contentType)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, target, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

func get(t *testing.T, r *router.Router, target string) (*http.Response, []byte) {
	t.Helper()
	return do(t, r, httptest.NewRequest(http.MethodGet, target, nil))
}

func send(t *testing.T, r *router.Router, method, target, contentType, body string) (*http.Response, []byte) {
	t.Helper()
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	return do(t, r, req)
}

// wantProblem asserts a problem+json answer with the status and returns it.
func wantProblem(t *testing.T, resp *http.Response, body []byte, status int) problem.Problem {
	t.Helper()
	return servicetest.WantProblem(t, resp.StatusCode, resp.Header, body, status)
}

// wantField asserts that the problem names field in its errors.
func wantField(t *testing.T, p problem.Problem, field string) {
	t.Helper()
	servicetest.WantField(t, p, field)
}

func decode[T any](t *testing.T, body []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
	return v
}
