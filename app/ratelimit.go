package app

import (
	"net/http"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/limiter"

	"github.com/asapjs/fiber-template/app/controllers"
)

// authRateLimit limits each client address to max requests a minute on
// the public auth routes (sign-up, login, refresh) with Fiber's limiter,
// its counters in storage (nil: in memory). Over the limit the answer is a
// 429 problem with Retry-After; every answer of those routes carries the
// RateLimit-Limit, -Remaining and -Reset headers of the IETF draft next to
// the limiter's X-RateLimit ones.
func authRateLimit(basePath string, max int, storage fiber.Storage) fiber.Handler {
	limited := map[string]bool{
		basePath + "/users":        true,
		basePath + "/auth/login":   true,
		basePath + "/auth/refresh": true,
	}
	limit := limiter.New(limiter.Config{
		Max:        max,
		Expiration: time.Minute,
		Storage:    storage,
		Next: func(c *fiber.Ctx) bool {
			return c.Method() != http.MethodPost || !limited[strings.TrimSuffix(c.Path(), "/")]
		},
		KeyGenerator: func(c *fiber.Ctx) string { return "auth:" + c.IP() },
		LimitReached: func(c *fiber.Ctx) error {
			return controllers.ErrTooManyRequests.WithDetail("Too many requests to the auth routes from this address; try again in %s seconds.",
				string(c.Response().Header.Peek(fiber.HeaderRetryAfter)))
		},
	})
	return func(c *fiber.Ctx) error {
		err := limit(c)
		h := &c.Response().Header
		for _, name := range []string{"Limit", "Remaining", "Reset"} {
			if v := h.Peek("X-RateLimit-" + name); len(v) > 0 {
				h.SetBytesV("RateLimit-"+name, v)
			}
		}
		return err
	}
}
