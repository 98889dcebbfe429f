package migrations

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/platform/database"
)

// The table of the rate limit counters on both dialects, as
// database.RateLimitCounters reads it: one row per key ("scope:key", at
// most 64 bytes), its count and the end of its window in Unix
// milliseconds, indexed by that end for the sweep of ended windows. On
// PostgreSQL it replaces the gofiber/storage table rate_limits, whose
// counters are dropped with it (they last a minute).
func init() {
	Migrations.MustRegister(func(ctx context.Context, db *bun.DB) error {
		return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			queries := []string{
				`CREATE TABLE IF NOT EXISTS rate_limit_hits (
					"key" VARCHAR(64) PRIMARY KEY NOT NULL,
					hits INTEGER NOT NULL,
					reset_at BIGINT NOT NULL
				)`,
				`CREATE INDEX IF NOT EXISTS rate_limit_hits_reset_at_idx ON rate_limit_hits (reset_at)`,
			}
			if database.DialectOfDB(db) == database.Postgres {
				queries = append(queries, `DROP TABLE IF EXISTS rate_limits`)
			}
			for _, q := range queries {
				if _, err := tx.ExecContext(ctx, q); err != nil {
					return fmt.Errorf("create rate_limit_hits: %w", err)
				}
			}
			return nil
		})
	}, func(ctx context.Context, db *bun.DB) error {
		return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			queries := []string{`DROP TABLE IF EXISTS rate_limit_hits`}
			if database.DialectOfDB(db) == database.Postgres {
				// The table of 20250801000100, empty, as it left it.
				queries = append(queries,
					`CREATE TABLE IF NOT EXISTS rate_limits (
						k VARCHAR(64) PRIMARY KEY NOT NULL DEFAULT '',
						v BYTEA NOT NULL,
						e BIGINT NOT NULL DEFAULT '0'
					)`,
					`CREATE INDEX IF NOT EXISTS rate_limits_e_idx ON rate_limits (e)`)
			}
			for _, q := range queries {
				if _, err := tx.ExecContext(ctx, q); err != nil {
					return fmt.Errorf("drop rate_limit_hits: %w", err)
				}
			}
			return nil
		})
	})
}
