package dbscale

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"github.com/asapjs/fiber-template/app/models"
)

// BenchmarkStatements reads a page of 21 users after an id through Bun, one
// query at a time, on two pools of the same database: pgx's default, which
// prepares every new text on its connection (impl=pgx-default), and the
// service's database.Open, which prepares a text the second time it comes
// (impl=service). Bun writes the id into the SQL: text=repeated sends one
// text over and over (a list's first page), text=once a new one each time
// (pages after cursors, rows by id). Compare with
//
//	benchstat -col /impl
func BenchmarkStatements(b *testing.B) {
	ctx := context.Background()
	dsn, service := seeded(b, ctx, 10_000)
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		b.Fatal(err)
	}
	plain := bun.NewDB(stdlib.OpenDB(*cfg), pgdialect.New())
	b.Cleanup(func() { _ = plain.Close() })

	for _, text := range []string{"repeated", "once"} {
		for _, impl := range []struct {
			name string
			db   *bun.DB
		}{{"pgx-default", plain}, {"service", service}} {
			b.Run("text="+text+"/impl="+impl.name, func(b *testing.B) {
				after := int64(0)
				for b.Loop() {
					if text == "once" {
						after = (after + 1) % 9_000
					}
					var users []models.User
					if err := impl.db.NewSelect().Model(&users).Where("id > ?", after).Order("id").Limit(21).Scan(ctx); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
