package router

import (
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"
)

// answerOutside answers with the problem of err a request the middleware
// chain does not serve: a method HTTP does not define (methods.go) or a
// body refused from its head (expect.go); Fiber answers the requests the
// server could not read (recordServerErrors). Its answer is logged and counted
// as the chain's are, with the status the client got, so that a flood of
// such refusals shows in the access log and the metrics. It returns that
// status.
func (r *Router) answerOutside(c *fiber.Ctx, err error) int {
	start := time.Now()
	if r.metrics != nil {
		r.metrics.inFlight.Inc()
		defer r.metrics.inFlight.Dec()
	}
	// A body it came with is not read: the connection is closed after
	// the answer, so no part of it is taken for a request.
	r.settleBody(c)
	_ = r.handleError(c, err)
	r.record(c, start)
	return c.Response().StatusCode()
}

// record logs and counts c, answered, whose request began at start.
func (r *Router) record(c *fiber.Ctx, start time.Time) {
	if r.accessLog != nil {
		r.accessLog.Log(c, start)
	}
	if r.metrics != nil {
		r.metrics.observe(c, start)
	}
}

// recordServerErrors logs and counts the answers to the requests the
// server could not read whole, which Fiber gives through handleError
// without the middleware chain: a malformed request line or head (400),
// a head over its buffer (431), a request that did not arrive within
// ReadTimeout (408). Their duration is the answer's alone: when such a
// request began is not known.
func (r *Router) recordServerErrors() {
	srv := r.app.Server()
	next := srv.ErrorHandler
	srv.ErrorHandler = func(fctx *fasthttp.RequestCtx, err error) {
		start := time.Now()
		next(fctx, err)
		c := r.app.AcquireCtx(fctx)
		defer r.app.ReleaseCtx(c)
		r.record(c, start)
	}
}
