package router

import (
	"github.com/gofiber/fiber/v2/middleware/cors"
)

// useMiddleware registers start-up step 2. The request's span, when
// tracing is on, is outermost; request ids and panic recovery
// wrap everything so even a panicking user middleware answers a problem; the
// request's deadline comes next, so everything below runs under it; then
// the seed's chain: CORS, body limits (enforced by the server for JSON,
// URL-encoded and multipart bodies alike) and the user middleware. The
// client address (clientip) is resolved first, from trusted proxies only.
func (r *Router) useMiddleware() {
	r.app.Use(r.clientIP) // first: every handler may ask clientip.From
	if r.tracing != nil {
		// Outermost, so the request log line and every answer, errors
		// included, are inside the request's span.
		r.app.Use(r.tracing.handler)
	}
	r.app.Use(r.requestScope)
	if r.metrics != nil {
		r.app.Use(r.measure)
	}
	r.app.Use(r.withDeadline)
	r.app.Use(cors.New(cors.Config{
		AllowOrigins:     r.cfg.CORS.AllowOrigins,
		AllowHeaders:     r.cfg.CORS.AllowHeaders,
		AllowCredentials: r.cfg.CORS.AllowCredentials,
		MaxAge:           r.cfg.CORS.MaxAge,
		AllowMethods:     "GET,POST,HEAD,PUT,DELETE,PATCH",
	}))
	for _, m := range r.cfg.Middleware {
		if m != nil {
			r.app.Use(m)
		}
	}
}
