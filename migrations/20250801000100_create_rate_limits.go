package migrations

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/platform/database"
)

// The table of the auth rate limit counters on PostgreSQL, in the layout of
// gofiber/storage's PostgreSQL backend (k, v, e). The backend creates it
// itself when it is missing, with a plain CREATE TABLE that fails when two
// instances start at once; created here, under the migration lock, it
// already exists when they start. SQLite keeps its counters in memory.
func init() {
	Migrations.MustRegister(func(ctx context.Context, db *bun.DB) error {
		if database.DialectOfDB(db) != database.Postgres {
			return nil
		}
		for _, q := range []string{
			`CREATE TABLE IF NOT EXISTS rate_limits (
				k VARCHAR(64) PRIMARY KEY NOT NULL DEFAULT '',
				v BYTEA NOT NULL,
				e BIGINT NOT NULL DEFAULT '0'
			)`,
			`CREATE INDEX IF NOT EXISTS rate_limits_e_idx ON rate_limits (e)`,
		} {
			if _, err := db.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("create rate_limits: %w", err)
			}
		}
		return nil
	}, func(ctx context.Context, db *bun.DB) error {
		if database.DialectOfDB(db) != database.Postgres {
			return nil
		}
		if _, err := db.ExecContext(ctx, `DROP TABLE IF EXISTS rate_limits`); err != nil {
			return fmt.Errorf("drop rate_limits: %w", err)
		}
		return nil
	})
}
