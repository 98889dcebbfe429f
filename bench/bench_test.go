package bench

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"
)

// serve runs the application's request handler in process, the path a
// request takes once fasthttp has parsed it, and checks every answer. One
// goroutine keeps the measurement steady; wrk covers concurrency (see
// README.md).
func serve(b *testing.B, app *fiber.App, authorization string) {
	h := app.Handler()
	var ctx fasthttp.RequestCtx
	b.ReportAllocs()
	for b.Loop() {
		ctx.Request.Reset()
		ctx.Response.Reset()
		ctx.Request.Header.SetMethod(fiber.MethodGet)
		ctx.Request.SetRequestURI(Target)
		ctx.Request.Header.Set(fiber.HeaderAuthorization, authorization)
		h(&ctx)
		if ctx.Response.StatusCode() != http.StatusOK {
			b.Fatalf("status %d: %s", ctx.Response.StatusCode(), ctx.Response.Body())
		}
	}
}

// serveHTTP sends each request through app.Test: a full HTTP/1.1 request
// written, parsed and answered in process, as a client would see it.
func serveHTTP(b *testing.B, app *fiber.App, authorization string) {
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

func routerApp(b *testing.B, auth bool) *fiber.App {
	app, err := RouterApp(auth)
	if err != nil {
		b.Fatal(err)
	}
	return app
}

func token(b *testing.B) string {
	s, err := Token()
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkListHTTP is BenchmarkList through app.Test.
func BenchmarkListHTTP(b *testing.B) {
	// Every implementation gets the same request, token included, so the
	// harness costs the same for each; only the JWT route reads the token.
	authorization := "Bearer " + token(b)
	b.Run("impl=raw-fiber", func(b *testing.B) { serveHTTP(b, RawApp(false), authorization) })
	b.Run("impl=raw-fiber-middleware", func(b *testing.B) { serveHTTP(b, RawApp(true), authorization) })
	b.Run("impl=router", func(b *testing.B) { serveHTTP(b, routerApp(b, false), authorization) })
	b.Run("impl=router-jwt", func(b *testing.B) { serveHTTP(b, routerApp(b, true), authorization) })
}

// BenchmarkList compares the list route across implementations; run with
// -count and compare the sub-benchmarks with benchstat.
func BenchmarkList(b *testing.B) {
	// Every implementation gets the same request, token included, so the
	// harness costs the same for each; only the JWT route reads the token.
	authorization := "Bearer " + token(b)
	b.Run("impl=raw-fiber", func(b *testing.B) { serve(b, RawApp(false), authorization) })
	b.Run("impl=raw-fiber-middleware", func(b *testing.B) { serve(b, RawApp(true), authorization) })
	b.Run("impl=router", func(b *testing.B) { serve(b, routerApp(b, false), authorization) })
	b.Run("impl=router-jwt", func(b *testing.B) { serve(b, routerApp(b, true), authorization) })
}
