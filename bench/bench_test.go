package bench

import (
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
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
		{"raw-fiber-same-answer", func() (*fiber.App, error) { return SameAnswerApp(), nil }},
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
func BenchmarkListHTTP(b *testing.B) {
	sameAnswer(b)
	each(b, HTTP)
}

// sameAnswer fails b unless the hand-written route of SameAnswerApp answers
// the router's body with the same header fields (to a request with a
// token, as every implementation gets), so that the baseline keeps doing
// the router's work as the router changes.
func sameAnswer(b *testing.B) {
	b.Helper()
	routed, err := RouterApp(true)
	if err != nil {
		b.Fatal(err)
	}
	token, err := Token()
	if err != nil {
		b.Fatal(err)
	}
	answer := func(app *fiber.App) (fields []string, body, link string) {
		req := httptest.NewRequest(http.MethodGet, Target, nil)
		req.Header.Set(fiber.HeaderAuthorization, "Bearer "+token)
		resp, err := app.Test(req, -1)
		if err != nil {
			b.Fatal(err)
		}
		defer resp.Body.Close()
		raw, err := io.ReadAll(resp.Body)
		if err != nil {
			b.Fatal(err)
		}
		for name := range resp.Header {
			fields = append(fields, name)
		}
		slices.Sort(fields)
		return fields, string(raw), resp.Header.Get(fiber.HeaderLink)
	}
	wantFields, wantBody, wantLink := answer(routed)
	fields, body, link := answer(SameAnswerApp())
	if !slices.Equal(fields, wantFields) || body != wantBody || link != wantLink {
		b.Fatalf("the same-answer baseline answers\n%v\n%s\n%s\nthe router\n%v\n%s\n%s", fields, link, body, wantFields, wantLink, wantBody)
	}
}

// BenchmarkList compares the list route across implementations; run with
// -count and compare the sub-benchmarks with benchstat.
func BenchmarkList(b *testing.B) { each(b, Handler) }
