package router

import (
	"errors"
	"log/slog"
	"net/http"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/problem"
)

// handleError is the final error handler: every error becomes problem
// details. Declared errors and problems are answered as they are, Fiber's
// own errors keep their status with a fixed detail, a request that ran out
// of time or met an outage of a dependency is a 503 with Retry-After, and
// anything else is a 500 whose cause goes to the log only.
func (r *Router) handleError(c *fiber.Ctx, err error) error {
	p := r.problemOf(c, err)
	if p.Status == http.StatusServiceUnavailable {
		r.setRetryAfter(c)
	}
	c.Status(p.Status)
	return c.JSON(p, problem.ContentType)
}

func (r *Router) problemOf(c *fiber.Ctx, err error) *problem.Problem {
	var (
		declared *problem.Error
		p        *problem.Problem
		fe       *fiber.Error
	)
	switch {
	case errors.As(err, &declared):
		return declared.Problem()
	case errors.As(err, &p):
		return p
	case errors.As(err, &fe) && fe.Code >= 400 && fe.Code < 500:
		return problem.New(fe.Code, fiberDetail(fe.Code))
	}
	if p, ok := r.unavailableProblem(c, err); ok {
		return p
	}
	r.cfg.Logger.Error("request failed",
		slog.String("request_id", requestID(c)),
		slog.String("method", c.Method()),
		slog.String("path", c.Path()),
		slog.Any("error", err))
	return problem.New(http.StatusInternalServerError, "The server could not complete the request; it has been logged with request id "+requestID(c)+".")
}

// fiberDetail gives Fiber's client errors a fixed detail, so nothing the
// client sent and nothing internal is echoed back.
func fiberDetail(status int) string {
	switch status {
	case http.StatusNotFound:
		return "No route matches the request path."
	case http.StatusMethodNotAllowed:
		return "The route does not accept this method."
	case http.StatusRequestEntityTooLarge:
		return "The request body is larger than the server accepts."
	case http.StatusBadRequest:
		return "The request could not be parsed."
	default:
		return ""
	}
}
