package dbscale

import (
	"context"
	"math/rand/v2"
	"strconv"
	"testing"
)

// BenchmarkRowByID reads a user of a 10k-user table by id, another drawn
// at random for each request, one request at a time on the handler path:
// the service's GET /api/users/{id}, and raw pgx's row by $1 encoded as
// JSON. A new id each time is what clients send; one id replayed would
// hide the cost of a query the server has not seen.
func BenchmarkRowByID(b *testing.B) {
	ctx := context.Background()
	sz := setUp(b, ctx, 10_000, settings{workers: 1, transport: transportHandler})
	id := func() int64 { return 1 + rand.Int64N(int64(sz.rows)) }
	b.Run("impl=service", func(b *testing.B) {
		for b.Loop() {
			if _, err := sz.service.get(ctx, 0, "/api/users/"+strconv.FormatInt(id(), 10)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("impl=raw-pgx", func(b *testing.B) {
		for b.Loop() {
			if _, err := sz.raw.row(ctx, id()); err != nil {
				b.Fatal(err)
			}
		}
	})
}
