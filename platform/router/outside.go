package router

import (
	"time"

	"github.com/gofiber/fiber/v2"
)

// answerOutside answers with the problem of err a request the middleware
// chain does not serve: a method HTTP does not define (methods.go) or a
// body refused from its head (expect.go). Its answer is logged and counted
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
