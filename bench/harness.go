package bench

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"
)

// Handler runs the application's request handler in process, the path a
// request takes once fasthttp has parsed it, and checks every answer. One
// goroutine keeps the measurement steady; wrk covers concurrency (see
// README.md).
func Handler(b *testing.B, app *fiber.App, authorization string) {
	HandlerAt(b, app, authorization, Target)
}

// HandlerAt is Handler for the request GET target.
func HandlerAt(b *testing.B, app *fiber.App, authorization, target string) {
	h := app.Handler()
	var ctx fasthttp.RequestCtx
	b.ReportAllocs()
	for b.Loop() {
		// What fasthttp's server resets between two requests of a
		// connection: the request, the response and the user values (the
		// request's context lives there).
		ctx.Request.Reset()
		ctx.Response.Reset()
		ctx.ResetUserValues()
		ctx.Request.Header.SetMethod(fiber.MethodGet)
		ctx.Request.SetRequestURI(target)
		ctx.Request.Header.SetHost("bench.test")
		ctx.Request.Header.Set(fiber.HeaderAuthorization, authorization)
		h(&ctx)
		if ctx.Response.StatusCode() != http.StatusOK {
			b.Fatalf("status %d: %s", ctx.Response.StatusCode(), ctx.Response.Body())
		}
	}
}

// WriteAt is HandlerAt for a write: method to target with each of bodies
// in turn, as contentType, answered with want.
func WriteAt(b *testing.B, app *fiber.App, authorization, method, target, contentType string, bodies [][]byte, want int) {
	h := app.Handler()
	var ctx fasthttp.RequestCtx
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		ctx.Request.Reset()
		ctx.Response.Reset()
		ctx.ResetUserValues()
		ctx.Request.Header.SetMethod(method)
		ctx.Request.SetRequestURI(target)
		ctx.Request.Header.SetHost("bench.test")
		ctx.Request.Header.Set(fiber.HeaderAuthorization, authorization)
		ctx.Request.Header.SetContentType(contentType)
		ctx.Request.SetBody(bodies[i%len(bodies)])
		i++
		h(&ctx)
		if ctx.Response.StatusCode() != want {
			b.Fatalf("status %d: %s", ctx.Response.StatusCode(), ctx.Response.Body())
		}
	}
}

// HTTP sends each request through app.Test: a full HTTP/1.1 request
// written, parsed and answered in process, as a client would see it.
func HTTP(b *testing.B, app *fiber.App, authorization string) {
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest(http.MethodGet, Target, nil)
		req.Header.Set(fiber.HeaderAuthorization, authorization)
		resp, err := app.Test(req, -1)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("status %d", resp.StatusCode)
		}
	}
}
