package router

import (
	"fmt"
	"log/slog"
	"runtime/debug"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/cors"
	"github.com/gofiber/fiber/v2/middleware/recover"
	"github.com/gofiber/fiber/v2/middleware/requestid"
)

// useMiddleware registers start-up step 2. Request ids and panic recovery
// wrap everything so even a panicking user middleware answers a problem; then
// the seed's chain: CORS, body limits (enforced by the server for JSON,
// URL-encoded and multipart bodies alike), proxy trust (set on the app) and
// the user middleware.
func (r *Router) useMiddleware() {
	r.app.Use(requestid.New())
	r.app.Use(recover.New(recover.Config{
		EnableStackTrace: true,
		StackTraceHandler: func(c *fiber.Ctx, e any) {
			r.cfg.Logger.Error("panic in handler",
				slog.String("request_id", requestID(c)),
				slog.String("method", c.Method()),
				slog.String("path", c.Path()),
				slog.String("panic", fmt.Sprint(e)),
				slog.String("stack", string(debug.Stack())))
		},
	}))
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

// requestID returns the id the requestid middleware gave the request.
func requestID(c *fiber.Ctx) string {
	if id, ok := c.Locals(requestid.ConfigDefault.ContextKey).(string); ok {
		return id
	}
	return string(c.Response().Header.Peek(fiber.HeaderXRequestID))
}
