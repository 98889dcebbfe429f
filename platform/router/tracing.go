package router

import (
	"github.com/gofiber/contrib/otelfiber/v2"
	"github.com/gofiber/fiber/v2"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// Propagator is the W3C propagator of the router's spans: an incoming
// traceparent (and tracestate, baggage) continues the caller's trace, and
// the answer carries the server span's traceparent. Set it as otel's global
// propagator too, so outgoing calls made with a request's context carry it.
var Propagator propagation.TextMapPropagator = propagation.NewCompositeTextMapPropagator(
	propagation.TraceContext{}, propagation.Baggage{})

// httpTracing makes a server span per request, named by the route template
// (/api/users/:id, never the raw path) it ended on.
type httpTracing struct {
	handler fiber.Handler
	// templates are the templates of the routes that serve requests
	// (routeTemplates); a request ending on none matched none.
	templates map[*fiber.Route]string
}

func newHTTPTracing(tp trace.TracerProvider) *httpTracing {
	t := &httpTracing{}
	t.handler = otelfiber.Middleware(
		otelfiber.WithTracerProvider(tp),
		// The request metrics are the router's own (Config.Metrics).
		otelfiber.WithMeterProvider(metricnoop.NewMeterProvider()),
		otelfiber.WithPropagators(Propagator),
		otelfiber.WithSpanNameFormatter(t.spanName),
	)
	return t
}

// spanName is the route template of a finished request, or unmatchedRoute.
func (t *httpTracing) spanName(c *fiber.Ctx) string {
	return routeLabel(t.templates, c)
}

// traceID is the id of the trace the request's context is in, or "".
func traceID(c *fiber.Ctx) string {
	if sc := trace.SpanContextFromContext(c.UserContext()); sc.HasTraceID() {
		return sc.TraceID().String()
	}
	return ""
}
