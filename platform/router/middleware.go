package router

import (
	"fmt"
	"log/slog"
	"runtime/debug"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/cors"
	"github.com/gofiber/fiber/v2/middleware/recover"

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
//	errors           the one place an error becomes an answer (handleError)
//	recovery         a panic below becomes an error, logged with its stack
//	head, framing,   a malformed head (head.go), a request framed two ways,
//	body             with a body its route does not declare, or over the
//	                 body limit is refused
//	deadline         REQUEST_TIMEOUT on the request's context
//	CORS, user middleware
//
// Everything below "errors" returns errors and never writes a problem
// itself; everything above it reads the final answer.
func (r *Router) useMiddleware() error {
	r.app.Use(r.clientIP) // first: every handler may ask clientip.From
	if r.tracing != nil {
		r.app.Use(r.tracing.handler)
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
	r.app.Use(ids, secure.New())
	if r.cfg.LogRequests {
		r.app.Use(accesslog.New(accesslog.Config{Logger: r.cfg.Logger, Attrs: requestAttrs}))
	}
	if r.metrics != nil {
		r.app.Use(r.measure)
	}
	r.app.Use(r.answerErrors)
	r.app.Use(recover.New(recover.Config{EnableStackTrace: true, StackTraceHandler: r.logPanic}))
	r.app.Use(r.guardBody, r.withDeadline)
	r.app.Use(cors.New(cors.Config{
		AllowOrigins:     r.cfg.CORS.AllowOrigins,
		AllowHeaders:     r.cfg.CORS.AllowHeaders,
		ExposeHeaders:    r.cfg.CORS.ExposeHeaders,
		AllowCredentials: r.cfg.CORS.AllowCredentials,
		MaxAge:           r.cfg.CORS.MaxAge,
		AllowMethods:     "GET,POST,HEAD,PUT,DELETE,PATCH",
	}))
	for _, m := range r.cfg.Middleware {
		if m != nil {
			r.app.Use(m)
		}
	}
	return nil
}

// answerErrors is where an error from anything below, a handler, the
// binding, authentication or a middleware, becomes its answer.
func (r *Router) answerErrors(c *fiber.Ctx) error {
	if err := c.Next(); err != nil {
		return r.handleError(c, err)
	}
	return nil
}

// guardBody refuses a request whose head parsers could read two ways
// (head.go) or framed two ways before anything reads it, one with a body
// that no route declaring one serves (bodiless.go), and one whose
// declared body is over the server's limit; when the answer leaves part of
// a body unread, the connection is closed after it.
func (r *Router) guardBody(c *fiber.Ctx) error {
	if err := checkHead(c); err != nil {
		return err
	}
	defer r.settleBody(c)
	if err := r.refuseUndeclaredBody(c); err != nil {
		return err
	}
	if err := r.checkBodySize(c); err != nil {
		return err
	}
	return c.Next()
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
