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

// learnRoutes records the route templates of app, once every route is
// registered.
func (t *httpTracing) learnRoutes(app *fiber.App) {
	t.templates = routeTemplates(app)
}

// spanName is the route template of a finished request, or unmatchedRoute.
func (t *httpTracing) spanName(c *fiber.Ctx) string {
	return routeLabel(t.templates, c)
}

// routeTemplates maps the routes of app that serve requests, middleware
// routes left out, to their templates. A request is looked up by the
// route it ended on, never by a string of its own: the middleware chain
// is a route on "/" that a request no route matched ends on, and outside
// the chain Fiber's route of a request is a stand-in whose path points
// into the request's buffer, which the next request reuses.
func routeTemplates(app *fiber.App) map[*fiber.Route]string {
	// GetRoutes copies the routes it returns, and leaves out the
	// middleware's; a copy shares its handlers with the route it copies.
	served := map[*fiber.Handler]bool{}
	for _, rt := range app.GetRoutes(true) {
		served[&rt.Handlers[0]] = true
	}
	m := map[*fiber.Route]string{}
	for _, routes := range app.Stack() {
		for _, rt := range routes {
			if served[&rt.Handlers[0]] {
				m[rt] = rt.Path
			}
		}
	}
	return m
}

// routeLabel is the template of the route c ended on, or unmatchedRoute.
func routeLabel(templates map[*fiber.Route]string, c *fiber.Ctx) string {
	if path, ok := templates[c.Route()]; ok {
		return path
	}
	return unmatchedRoute
}

// traceID is the id of the trace the request's context is in, or "".
func traceID(c *fiber.Ctx) string {
	if sc := trace.SpanContextFromContext(c.UserContext()); sc.HasTraceID() {
		return sc.TraceID().String()
	}
	return ""
}
