package router

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/middleware/requestid"
	"github.com/asapjs/fiber-template/platform/problem"
)

// Problems of requests that could not be served for now; both answer 503
// with Retry-After.
var (
	errRequestTimeout = problem.Declare(http.StatusServiceUnavailable, "request_timeout", "Request timed out")
	errUnavailable    = problem.Declare(http.StatusServiceUnavailable, "service_unavailable", "Service unavailable")
)

// unavailableProblem answers an error that says the service cannot serve
// for now: the request ran out of time, or an extension recognised an
// outage of its dependency. ok is false for any other error.
func (r *Router) unavailableProblem(c *fiber.Ctx, err error) (p *problem.Problem, ok bool) {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		p = errRequestTimeout.WithDetail("The request did not complete within %s; retry later.", r.cfg.RequestTimeout).Problem()
	case r.isOutage(err):
		p = errUnavailable.WithDetail("A service this request needs cannot be reached; retry later.").Problem()
	default:
		return nil, false
	}
	r.cfg.Logger.Warn("request unavailable",
		slog.String("request_id", requestid.From(c)),
		slog.String("method", c.Method()),
		slog.String("path", c.Path()),
		slog.String("code", p.Code),
		slog.Any("error", err))
	return p, true
}

// isOutage asks the extensions that detect outages about err.
func (r *Router) isOutage(err error) bool {
	for _, d := range r.outages {
		if d.Outage(err) {
			return true
		}
	}
	return false
}

// setRetryAfter tells the client of a 503 when to try again.
func (r *Router) setRetryAfter(c *fiber.Ctx) {
	c.Set(fiber.HeaderRetryAfter, strconv.Itoa(int(r.cfg.RetryAfter.Seconds())))
}
