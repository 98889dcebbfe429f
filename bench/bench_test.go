package bench

import (
	"testing"

	"github.com/gofiber/fiber/v2"
)

// each runs measure on every implementation of the list route, each a
// sub-benchmark named impl=NAME.
func each(b *testing.B, measure func(b *testing.B, app *fiber.App, authorization string)) {
	sess := newSessions(b)
	impls := []struct {
		name string
		app  func() (*fiber.App, error)
	}{
		{"raw-fiber", func() (*fiber.App, error) { return RawApp(false), nil }},
		{"raw-fiber-middleware", func() (*fiber.App, error) { return RawApp(true), nil }},
		{"router", func() (*fiber.App, error) { return RouterApp(false) }},
		{"router-jwt", func() (*fiber.App, error) { return RouterApp(true) }},
		{"router-metrics", MetricsApp},
		{"router-jwt-revocation", func() (*fiber.App, error) { return RevocationApp(sess.service) }},
	}
	for _, impl := range impls {
		b.Run("impl="+impl.name, func(b *testing.B) {
			app, err := impl.app()
			if err != nil {
				b.Fatal(err)
			}
			// Every implementation gets the same request, token included
			// (an access token of a real session), so the harness costs
			// the same for each; only the JWT routes read the token.
			measure(b, app, sess.authorization)
		})
	}
}

// BenchmarkListHTTP is BenchmarkList through app.Test.
func BenchmarkListHTTP(b *testing.B) { each(b, HTTP) }

// BenchmarkList compares the list route across implementations; run with
// -count and compare the sub-benchmarks with benchstat.
func BenchmarkList(b *testing.B) { each(b, Handler) }
