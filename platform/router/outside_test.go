package router_test

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/asapjs/fiber-template/platform/router"
	"github.com/asapjs/fiber-template/platform/servicetest"
)

// TestAnswersBeforeTheChainAreLoggedAndCounted checks that the requests
// refused before the middleware chain runs, a method HTTP does not define
// and a body refused from its head, get their access log line and their
// count as every other answer does: with the status the client got and
// the request id it was given, counted as no route's, since no route was
// matched yet.
func TestAnswersBeforeTheChainAreLoggedAndCounted(t *testing.T) {
	t.Parallel()
	logs := &servicetest.Buffer{}
	reg := prometheus.NewRegistry()
	take := func(*router.Ctx, *named) (*router.NoContent, error) { return nil, nil }
	r := newRouter(t, router.Config{
		LogRequests: true,
		Logger:      slog.New(slog.NewJSONHandler(logs, nil)),
		Metrics:     reg,
		ReadTimeout: 300 * time.Millisecond,
		Controllers: []router.Controller{router.Group{Path: "/things", Declared: []router.Route{
			router.Post("/", take, router.BodyLimit(1024)),
		}}},
	})
	base := listen(t, r)
	cases := []struct {
		name, head           string
		method, path, status string
		route                string
	}{
		{"a method HTTP does not define", "BREW /things HTTP/1.1\r\nHost: test\r\n\r\n",
			"BREW", "/things", "501", "OTHER unmatched"},
		{"an expected body over its route's limit", "POST /things HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: 4096\r\nExpect: 100-continue\r\n\r\n",
			"POST", "/things", "413", "POST unmatched"},
		{"an expected body to a route that takes none", "POST /livez HTTP/1.1\r\nHost: test\r\nContent-Length: 10\r\nExpect: 100-continue\r\n\r\n",
			"POST", "/livez", "413", "POST unmatched"},
		{"an expected body to a path nothing serves", "PUT /nowhere HTTP/1.1\r\nHost: test\r\nContent-Length: 10\r\nExpect: 100-continue\r\n\r\n",
			"PUT", "/nowhere", "404", "PUT unmatched"},
		{"a head the server cannot read", "GET /things HTTP/1.1\r\nHost: test\r\nBroken header\r\n\r\n",
			"GET", "/", "400", "GET unmatched"},
		{"a head over the server's buffer", "GET /things HTTP/1.1\r\nHost: test\r\nX-Big: " + strings.Repeat("a", 9000) + "\r\n\r\n",
			"GET", "/", "431", "GET unmatched"},
		{"a head that never ends", "GET /things HTTP/1.1\r\nHost: test\r\n",
			"GET", "/", "408", "GET unmatched"},
	}
	for _, tc := range cases {
		_, br := pipeline(t, base, tc.head)
		resp, body := readAnswer(t, br)
		if got := fmt.Sprint(resp.StatusCode); got != tc.status {
			t.Fatalf("%s: status %s: %s, want %s", tc.name, got, body, tc.status)
		}
		id := resp.Header.Get("X-Request-ID")
		if id == "" {
			t.Fatalf("%s: no request id", tc.name)
		}
		if line := logLineOf(t, logs.String(), id); line == nil {
			t.Errorf("%s: no access log line with request id %s in\n%s", tc.name, id, logs.String())
		} else if line["method"] != tc.method || line["path"] != tc.path || fmt.Sprint(line["status"]) != tc.status {
			t.Errorf("%s: logged %v, want %s %s %s", tc.name, line, tc.method, tc.path, tc.status)
		}
	}
	// Other requests reuse the buffers the refused ones were read into:
	// the labels kept must not be read from them. A path no route serves
	// ends on the middleware chain, a route on "/", as GET / is here: it
	// is still no route's.
	for range 4 {
		for _, path := range []string{"/metrics", "/livez/xyz", "/readyz"} {
			sendOverTCP(t, base, http.MethodGet, path, "", "")
		}
	}
	want := map[[2]string]float64{{"GET /metrics", "200"}: 4, {"GET unmatched", "404"}: 4, {"GET /readyz", "200"}: 4}
	for _, tc := range cases {
		want[[2]string{tc.route, tc.status}]++
	}
	for k, n := range want {
		if got := counted(t, reg, k[0], k[1]); got != n {
			t.Errorf("counted %v requests as %s %s, want %v; counted:\n%v", got, k[0], k[1], n, requestSeries(t, reg))
		}
	}
}

// logLineOf returns the access log line of the request with id, or nil.
func logLineOf(t *testing.T, logs, id string) map[string]any {
	t.Helper()
	for line := range strings.Lines(logs) {
		var fields map[string]any
		if err := json.Unmarshal([]byte(line), &fields); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if fields["msg"] == "request" && fields["request_id"] == id {
			return fields
		}
	}
	return nil
}

// counted is how many requests of route ("METHOD template") answered with
// status http_requests_total holds.
func counted(t *testing.T, reg *prometheus.Registry, route, status string) float64 {
	t.Helper()
	for _, s := range requestSeries(t, reg) {
		if s.labels["method"]+" "+s.labels["route"] == route && s.labels["status"] == status {
			return s.count
		}
	}
	return 0
}
