package router

import (
	"errors"
	"log/slog"
	"net/http"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/middleware/requestid"
	"github.com/asapjs/fiber-template/platform/middleware/secure"
	"github.com/asapjs/fiber-template/platform/paging"
	"github.com/asapjs/fiber-template/platform/problem"
)

// handleError turns an error into its answer, the only place that does.
// serve (answerError) calls it for everything routes
// and middleware return, and Fiber for what fails before the chain (a
// body over the server's limit, an unparsable request). An error maps to
// its problem by the first row that matches:
//
//	*problem.Error, *problem.Problem  as declared
//	*paging.FieldError                400 naming the paging field (page, limit, cursor)
//	*fiber.Error 431                  431 headers_too_large (request line and headers over the read buffer)
//	*fiber.Error 408                  408 request_read_timeout (the head not read within ReadHeaderTimeout, or the body within ReadTimeout)
//	*fiber.Error 4xx                  its status, with a fixed detail
//	context.DeadlineExceeded          503 request_timeout, Retry-After
//	an outage (OutageDetector)        503 service_unavailable, Retry-After
//	anything else, panics included    500; the cause goes to the log only
func (r *Router) handleError(c *fiber.Ctx, err error) error {
	if requestid.From(c) == "" && r.newID != nil {
		// An error Fiber answers before the middleware chain (a request
		// it could not read: 400, 408, 431; a method HTTP does not
		// define) gets what every answer carries: an id and the security
		// headers. What the client sent is not trusted here.
		var buf [40]byte
		c.Response().Header.SetBytesV(fiber.HeaderXRequestID, r.newID(buf[:0]))
		secure.Set(c)
	}
	p := r.problemOf(c, err)
	if p.Status == http.StatusServiceUnavailable {
		r.setRetryAfter(c)
	}
	c.Status(p.Status)
	return writeJSON(c, p, problem.ContentType)
}

func (r *Router) problemOf(c *fiber.Ctx, err error) *problem.Problem {
	var (
		declared *problem.Error
		p        *problem.Problem
		pf       *paging.FieldError
		fe       *fiber.Error
	)
	switch {
	case errors.As(err, &declared):
		return declared.Problem()
	case errors.As(err, &p):
		return p
	case errors.As(err, &pf):
		return fieldProblem("Invalid paging parameter "+pf.Field+": "+pf.Message+".", pf.Field, pf.Message)
	case errors.As(err, &fe) && fe.Code == http.StatusRequestHeaderFieldsTooLarge:
		return errHeadersTooLarge.WithDetail("The request line and headers are larger than the server reads (%d bytes).", r.cfg.ReadBufferSize).Problem()
	case errors.As(err, &fe) && fe.Code == http.StatusRequestTimeout:
		return errReadTimeout.WithDetail("The request was not received in time: its line and headers within %s, its body within %s of them.", r.cfg.ReadHeaderTimeout, r.cfg.ReadTimeout).Problem()
	case errors.As(err, &fe) && fe.Code >= 400 && fe.Code < 500:
		return problem.New(fe.Code, fiberDetail(fe.Code))
	}
	if p, ok := r.unavailableProblem(c, err); ok {
		return p
	}
	r.cfg.Logger.Error("request failed",
		slog.String("request_id", requestid.From(c)),
		slog.String("method", c.Method()),
		slog.String("path", c.Path()),
		slog.Any("error", err))
	return problem.New(http.StatusInternalServerError, "The server could not complete the request; it has been logged with request id "+requestid.From(c)+".")
}

// errHeadersTooLarge answers a request whose line and headers do not fit
// the server's read buffer; every route may answer it, and documents it.
var errHeadersTooLarge = problem.Declare(http.StatusRequestHeaderFieldsTooLarge, "headers_too_large", "Request headers too large")

// errReadTimeout answers a request whose line and headers did not arrive
// within the server's ReadHeaderTimeout, or whose body did not within its
// ReadTimeout; every route may answer it, and documents it.
var errReadTimeout = problem.Declare(http.StatusRequestTimeout, "request_read_timeout", "Request not received in time")

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
