package integration

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/asapjs/fiber-template/platform/router"
	"github.com/asapjs/fiber-template/platform/servicetest"
)

// scrape reads GET /metrics and parses it as Prometheus text.
func scrape(t *testing.T, r *router.Router) map[string]*dto.MetricFamily {
	t.Helper()
	res := send(t, r, http.MethodGet, "/metrics", nil)
	if res.status != http.StatusOK {
		t.Fatalf("GET /metrics = %d: %s", res.status, res.body)
	}
	return parseMetrics(t, res.body)
}

// parseMetrics parses the Prometheus text format.
func parseMetrics(t *testing.T, body []byte) map[string]*dto.MetricFamily {
	t.Helper()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("parse /metrics: %v\n%s", err, body)
	}
	return families
}

// counted returns the value of http_requests_total for the labels.
func counted(families map[string]*dto.MetricFamily, method, route, status string) float64 {
	for _, m := range families["http_requests_total"].GetMetric() {
		got := map[string]string{}
		for _, l := range m.GetLabel() {
			got[l.GetName()] = l.GetValue()
		}
		if got["method"] == method && got["route"] == route && got["status"] == status {
			return m.GetCounter().GetValue()
		}
	}
	return 0
}

func TestMetrics(t *testing.T) {
	t.Parallel()
	r := newService(t, inMemory, router.Config{BasePath: "/api", Metrics: prometheus.NewRegistry()})
	send(t, r, http.MethodGet, "/api/users/17", nil)
	send(t, r, http.MethodGet, "/api/users/18", nil)
	send(t, r, http.MethodGet, "/no/such/path/42", nil)
	families := scrape(t, r)

	t.Run("requests are counted by route template, never by raw path", func(t *testing.T) {
		if n := counted(families, "GET", "/api/users/:id", "401"); n != 2 {
			t.Errorf("GET /api/users/:id 401 counted %v times, want 2", n)
		}
		if n := counted(families, "GET", "/api/users/17", "401"); n != 0 {
			t.Errorf("the raw path is a label value")
		}
	})

	t.Run("unmatched requests share one label", func(t *testing.T) {
		if n := counted(families, "GET", "unmatched", "404"); n != 1 {
			t.Errorf("unmatched 404 counted %v times, want 1", n)
		}
	})

	t.Run("latency and requests in flight are exported", func(t *testing.T) {
		for _, name := range []string{"http_request_duration_seconds", "http_requests_in_flight"} {
			if families[name] == nil {
				t.Errorf("no %s", name)
			}
		}
	})

	t.Run("labels survive connections that carry many requests", func(t *testing.T) {
		// Fiber's strings of one request point into buffers the next
		// request on the connection reuses; a label kept from them would
		// change under the registry ("GETT") and break the exposition.
		reg := prometheus.NewRegistry()
		live := newService(t, inMemory, router.Config{BasePath: "/api", Metrics: reg})
		base := serve(t, live)
		for range 3 {
			for _, rq := range []struct{ method, path, body string }{{http.MethodPost, "/api/users", `{}`}, {http.MethodGet, "/api", ""}} {
				req, err := http.NewRequest(rq.method, base+rq.path, strings.NewReader(rq.body))
				if err != nil {
					t.Fatal(err)
				}
				req.Header.Set("Content-Type", "application/json")
				servicetest.Fetch(t, req) // sequential: one kept-alive connection
			}
		}
		req, err := http.NewRequest(http.MethodGet, base+"/metrics", nil)
		if err != nil {
			t.Fatal(err)
		}
		scraped := servicetest.Fetch(t, req)
		if scraped.Status != http.StatusOK {
			t.Fatalf("GET /metrics = %d: %s", scraped.Status, scraped.Body)
		}
		families := parseMetrics(t, scraped.Body)
		if n := counted(families, "GET", "/api", "200"); n != 3 {
			t.Errorf("GET /api counted %v times, want 3\n%s", n, scraped.Body)
		}
		for _, m := range families["http_requests_total"].GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "method" && l.GetValue() != "GET" && l.GetValue() != "POST" {
					t.Errorf("a series is labelled method=%q", l.GetValue())
				}
			}
		}
	})

	t.Run("it is behind the docs Basic auth when that is on", func(t *testing.T) {
		guarded := newService(t, inMemory, router.Config{BasePath: "/api", Metrics: prometheus.NewRegistry(),
			APIDocs: router.APIDocs{UseAuth: true, Users: map[string]string{"ops": "secret"}}})
		if res := send(t, guarded, http.MethodGet, "/metrics", nil); res.status != http.StatusUnauthorized {
			t.Errorf("GET /metrics without credentials = %d, want 401", res.status)
		}
	})

	t.Run("without a registry there is no /metrics", func(t *testing.T) {
		plain := newService(t, inMemory, router.Config{BasePath: "/api"})
		if res := send(t, plain, http.MethodGet, "/metrics", nil); res.status != http.StatusNotFound {
			t.Errorf("GET /metrics = %d, want 404", res.status)
		}
	})
}
