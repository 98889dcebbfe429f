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

// metricsPath is where the metrics are served, never under the base path.
const metricsPath = "/metrics"

// httpMetrics are the request metrics of the router, labelled by method,
// route template (/api/users/:id, never the raw path) and status.
type httpMetrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	inFlight prometheus.Gauge
	// templates are the templates of the routes that serve requests
	// (routeTemplates); a request ending on none matched none.
	templates map[*fiber.Route]string
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
	r.metrics.observe(c, start)
	return err
}

// observe counts and times c, answered, whose request began at start,
// under its route template, or unmatchedRoute.
func (m *httpMetrics) observe(c *fiber.Ctx, start time.Time) {
	method, path := methodLabel(c.Method()), routeLabel(m.templates, c)
	status := strconv.Itoa(c.Response().StatusCode())
	m.requests.WithLabelValues(method, path, status).Inc()
	m.duration.WithLabelValues(method, path, status).Observe(time.Since(start).Seconds())
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
