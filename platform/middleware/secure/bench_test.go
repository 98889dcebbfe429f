package secure_test

import (
	"testing"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

	"github.com/asapjs/fiber-template/platform/middleware/secure"
)

// BenchmarkSecure is what the middleware adds to a request: a route
// without it, then with it.
func BenchmarkSecure(b *testing.B) {
	for _, with := range []bool{false, true} {
		b.Run(map[bool]string{false: "without", true: "with"}[with], func(b *testing.B) {
			app := fiber.New()
			if with {
				app.Use(secure.New())
			}
			app.Get("/", func(c *fiber.Ctx) error { return nil })
			h := app.Handler()
			var fctx fasthttp.RequestCtx
			for b.Loop() {
				fctx.Request.SetRequestURI("/")
				fctx.Response.Reset()
				h(&fctx)
			}
		})
	}
}
