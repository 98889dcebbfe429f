package router

import (
	"fmt"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/adaptor"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// unmatchedRoute is the route label of requests no route matched, so that
// probing clients cannot grow the series without bound.
const unmatchedRoute = "unmatched"

// metricsPath is where the metrics are served, never under the base path.
const metricsPath = "/metrics"

// httpMetrics are the request metrics of the router, labelled by method,
// route template (/api/users/:id, never the raw path) and status.
type httpMetrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	inFlight prometheus.Gauge
	// templates are the registered route templates by method; a request
	// ending on any other route (a middleware's) matched none.
	templates map[string]map[string]bool
}

// learnRoutes records the route templates of app, once every route is
// registered.
func (m *httpMetrics) learnRoutes(app *fiber.App) {
	m.templates = map[string]map[string]bool{}
	for _, rt := range app.GetRoutes(true) {
		if m.templates[rt.Method] == nil {
			m.templates[rt.Method] = map[string]bool{}
		}
		m.templates[rt.Method][rt.Path] = true
	}
}

// newHTTPMetrics registers the request metrics in reg.
func newHTTPMetrics(reg prometheus.Registerer) (*httpMetrics, error) {
	labels := []string{"method", "route", "status"}
	m := &httpMetrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "http_requests_total",
			Help: "HTTP requests answered, by method, route template and status.",
		}, labels),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "http_request_duration_seconds",
			Help:    "Time to answer an HTTP request, by method, route template and status.",
			Buckets: prometheus.DefBuckets,
		}, labels),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "http_requests_in_flight",
			Help: "HTTP requests being answered.",
		}),
	}
	for _, c := range []prometheus.Collector{m.requests, m.duration, m.inFlight} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("router: register metrics: %w", err)
		}
	}
	return m, nil
}

// measure is the middleware that counts and times every request, above
// the one that answers errors, so the status counted is the one the client
// gets.
func (r *Router) measure(c *fiber.Ctx) error {
	start := time.Now()
	r.metrics.inFlight.Inc()
	defer r.metrics.inFlight.Dec()
	err := c.Next()
	method := methodLabel(c.Method())
	path := c.Route().Path
	if !r.metrics.templates[method][path] {
		path = unmatchedRoute
	}
	status := strconv.Itoa(c.Response().StatusCode())
	r.metrics.requests.WithLabelValues(method, path, status).Inc()
	r.metrics.duration.WithLabelValues(method, path, status).Observe(time.Since(start).Seconds())
	return err
}

// methodLabel is the label of a request method: one of the standard
// methods, as a constant string (Fiber's c.Method() points into a buffer
// the next request on the connection reuses, and the registry keeps
// labels), or "OTHER", so that made-up methods cannot grow the series
// without bound.
func methodLabel(m string) string {
	for _, known := range fiber.DefaultMethods {
		if m == known {
			return known
		}
	}
	return "OTHER"
}

// registerMetrics serves GET /metrics in the Prometheus text format, behind
// the docs Basic auth when it is on, unless the metrics are served
// elsewhere. It is left out of the OpenAPI
// document: it is for a scraper, in a format of its own, not part of the
// API.
func (r *Router) registerMetrics() error {
	if r.cfg.Metrics == nil || r.cfg.MetricsElsewhere {
		return nil
	}
	if err := r.claim(fiber.MethodGet, metricsPath, "the metrics endpoint GET "+metricsPath); err != nil {
		return err
	}
	handler := adaptor.HTTPHandler(promhttp.HandlerFor(r.cfg.Metrics, promhttp.HandlerOpts{}))
	if r.docsGuard != nil {
		r.app.Get(metricsPath, r.docsGuard, handler)
		return nil
	}
	r.app.Get(metricsPath, handler)
	return nil
}
