package router

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/cors"

	"github.com/asapjs/fiber-template/platform/middleware/accesslog"
	"github.com/asapjs/fiber-template/platform/middleware/requestid"
	"github.com/asapjs/fiber-template/platform/middleware/secure"
)

// useMiddleware registers start-up step 2, outermost first:
//
//	client address   clientip, from trusted proxies only
//	span             tracing, when on: everything below is in the request's span
//	request id       requestid
//	security headers secure: nosniff, no framing, no referrer (OWASP REST)
//	access log       LogRequests: one line with the status the client got
//	metrics          Metrics: counted and timed with that status
//	serve            the router's own step, in one call:
//	  errors           the one place an error becomes an answer (handleError)
//	  recovery         a panic below becomes an error, logged with its stack
//	  head, framing,   a malformed head (head.go), a request framed two ways,
//	  body             with a body its route does not declare, or over the
//	                   body limit is refused
//	  deadline         REQUEST_TIMEOUT on the request's context
//	CORS, user middleware
//
// Everything below "errors" returns errors and never writes a problem
// itself; everything above it reads the final answer. The whole chain is
// one route, so each step calls the next directly instead of Fiber
// matching one more route for it.
func (r *Router) useMiddleware() error {
	chain := []any{r.clientIP} // first: every handler may ask clientip.From
	if r.tracing != nil {
		chain = append(chain, r.tracing.handler)
	}
	gen, err := requestid.NewGenerator()
	if err != nil {
		return fmt.Errorf("router: %w", err)
	}
	// The errors Fiber answers before this chain get their ids here too
	// (handleError).
	r.newID = gen
	ids, err := requestid.New(requestid.Config{Generator: gen})
	if err != nil {
		return fmt.Errorf("router: %w", err)
	}
	chain = append(chain, ids, secure.New())
	if r.cfg.LogRequests {
		r.accessLog = accesslog.NewLogger(accesslog.Config{Logger: r.cfg.Logger, Attrs: requestAttrs})
		chain = append(chain, r.accessLog.Handler)
	}
	if r.metrics != nil {
		chain = append(chain, r.measure)
	}
	chain = append(chain,
		r.serve,
		cors.New(cors.Config{
			AllowOrigins:     r.cfg.CORS.AllowOrigins,
			AllowHeaders:     r.cfg.CORS.AllowHeaders,
			ExposeHeaders:    r.cfg.CORS.ExposeHeaders,
			AllowCredentials: r.cfg.CORS.AllowCredentials,
			MaxAge:           r.cfg.CORS.MaxAge,
			AllowMethods:     "GET,POST,HEAD,PUT,DELETE,PATCH",
		}))
	for _, m := range r.cfg.Middleware {
		if m != nil {
			chain = append(chain, m)
		}
	}
	r.app.Use(chain...)
	return nil
}

// serve is the router's own step of the chain, in one call: from the
// outside in, errors, recovery, the head and body checks, the deadline
// (see useMiddleware). The deadline, Config.RequestTimeout on the
// request's context (Ctx.Context, Fiber's UserContext), bounds every
// database call and outgoing request made with it, so a handler waiting
// on a dependency that stopped answering gives up instead of hanging.
// The deferred calls run in the reverse order: the deadline ends, the
// connection is set to close when a body was left unread, a panic
// becomes an error, and any error becomes the answer.
func (r *Router) serve(c *fiber.Ctx) (err error) {
	defer r.answerError(c, &err)
	defer r.recoverPanic(c, &err)
	if err = checkHead(c); err != nil {
		return err
	}
	defer r.settleBody(c)
	if err = r.checkBody(c); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(c.UserContext(), r.cfg.RequestTimeout)
	defer cancel()
	c.SetUserContext(ctx)
	return c.Next()
}

// answerError is where an error from anything below, a handler, the
// binding, authentication or a middleware, becomes its answer.
func (r *Router) answerError(c *fiber.Ctx, err *error) {
	if *err != nil {
		*err = r.handleError(c, *err)
	}
}

// recoverPanic turns a panic below serve into an error, logged with its
// stack. It must be deferred by serve itself: recover works only there.
func (r *Router) recoverPanic(c *fiber.Ctx, err *error) {
	e := recover()
	if e == nil {
		return
	}
	r.logPanic(c, e)
	if asErr, ok := e.(error); ok {
		*err = asErr
	} else {
		*err = fmt.Errorf("%v", e)
	}
}

// logPanic logs a recovered panic with its stack and the request's id.
func (r *Router) logPanic(c *fiber.Ctx, e any) {
	r.cfg.Logger.Error("panic in handler",
		slog.String("request_id", requestid.From(c)),
		slog.String("method", c.Method()),
		slog.String("path", c.Path()),
		slog.String("panic", fmt.Sprint(e)),
		slog.String("stack", string(debug.Stack())))
}

// requestAttrs adds the request id, and the trace id when traced, to the
// access log line.
func requestAttrs(c *fiber.Ctx, attrs []slog.Attr) []slog.Attr {
	attrs = append(attrs, slog.String("request_id", requestid.From(c)))
	if id := traceID(c); id != "" {
		attrs = append(attrs, slog.String("trace_id", id))
	}
	return attrs
}
