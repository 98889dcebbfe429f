package bench

import (
	"testing"

	"github.com/gofiber/fiber/v2"
)

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
	b.Run("impl=raw-fiber", func(b *testing.B) { HTTP(b, RawApp(false), authorization) })
	b.Run("impl=raw-fiber-middleware", func(b *testing.B) { HTTP(b, RawApp(true), authorization) })
	b.Run("impl=router", func(b *testing.B) { HTTP(b, routerApp(b, false), authorization) })
	b.Run("impl=router-jwt", func(b *testing.B) { HTTP(b, routerApp(b, true), authorization) })
}

// BenchmarkList compares the list route across implementations; run with
// -count and compare the sub-benchmarks with benchstat.
func BenchmarkList(b *testing.B) {
	// Every implementation gets the same request, token included, so the
	// harness costs the same for each; only the JWT route reads the token.
	authorization := "Bearer " + token(b)
	b.Run("impl=raw-fiber", func(b *testing.B) { Handler(b, RawApp(false), authorization) })
	b.Run("impl=raw-fiber-middleware", func(b *testing.B) { Handler(b, RawApp(true), authorization) })
	b.Run("impl=router", func(b *testing.B) { Handler(b, routerApp(b, false), authorization) })
	b.Run("impl=router-jwt", func(b *testing.B) { Handler(b, routerApp(b, true), authorization) })
}
