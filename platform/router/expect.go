package router

import (
	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"
)

// answerExpectations answers a request that asks before it sends its body
// (Expect: 100-continue) with what its head alone decides: 100 Continue
// when the body would be read, else at once the answer it would get
// once sent, so that the client does not send it: a method HTTP does not
// define (501), a malformed head (400), a path nothing serves (404), a
// body its route does not take or one over Config.BodyLimit or the
// route's own limit (413). A route's other checks (its token, its media
// type) still answer after the 100, while the body is being sent. fasthttp
// closes the connection after a refusal, since the client may have
// started sending anyway.
func (r *Router) answerExpectations() {
	methods := r.app.Config().RequestMethods
	r.app.Server().ExpectHandler = func(fctx *fasthttp.RequestCtx) int {
		c := r.app.AcquireCtx(fctx)
		defer r.app.ReleaseCtx(c)
		err := r.expectation(c, methods)
		if err == nil {
			return fasthttp.StatusContinue
		}
		// fasthttp writes this answer as it is, with the status returned.
		return r.answerOutside(c, err)
	}
}

// expectation is the refusal the head of c gets before its body is read,
// or nil.
func (r *Router) expectation(c *fiber.Ctx, methods []string) error {
	if !knownMethod(methods, c.Request().Header.Method()) {
		return errUnknownMethod()
	}
	if err := checkHead(c); err != nil {
		return err
	}
	if err := r.checkBody(c); err != nil {
		return err
	}
	return r.checkRouteLimit(c)
}

// checkRouteLimit refuses a body whose declared length is over the limit
// of every route that may take it, as the route does once it runs
// (bodyBinding.bind), though without its checks of the token and the
// media type first. A compressed body is left to the route: its limit
// counts the bytes it decompresses to.
func (r *Router) checkRouteLimit(c *fiber.Ctx) error {
	h := &c.Request().Header
	if !identity(h.ContentEncoding()) {
		return nil
	}
	if limit := r.bodies.limit(c.Method(), c.Path()); limit > 0 && h.ContentLength() > limit {
		return tooLarge(limit)
	}
	return nil
}
