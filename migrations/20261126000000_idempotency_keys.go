package migrations

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/platform/database"
)

// The table of the Idempotency-Key answers on both dialects, as
// database.IdempotencyKeys reads it: one row per key (a digest of caller,
// route and key), the fingerprint of the request that claimed it, the
// stored answer (status 0 while it runs), the end of the claimant's lease
// and of the key's life in Unix milliseconds, indexed by the latter for the
// sweep.
func init() {
	Migrations.MustRegister(func(ctx context.Context, db *bun.DB) error {
		body := "BLOB"
		if database.DialectOfDB(db) == database.Postgres {
			body = "BYTEA"
		}
		return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			for _, q := range []string{
				`CREATE TABLE IF NOT EXISTS idempotency_keys (
					id VARCHAR(64) PRIMARY KEY NOT NULL,
					fingerprint VARCHAR(64) NOT NULL,
					status INTEGER NOT NULL,
					header TEXT,
					body ` + body + `,
					locked_until BIGINT NOT NULL,
					expires_at BIGINT NOT NULL
				)`,
				`CREATE INDEX IF NOT EXISTS idempotency_keys_expires_at_idx ON idempotency_keys (expires_at)`,
			} {
				if _, err := tx.ExecContext(ctx, q); err != nil {
					return fmt.Errorf("create idempotency_keys: %w", err)
				}
			}
			return nil
		})
	}, func(ctx context.Context, db *bun.DB) error {
		if _, err := db.ExecContext(ctx, `DROP TABLE IF EXISTS idempotency_keys`); err != nil {
			return fmt.Errorf("drop idempotency_keys: %w", err)
		}
		return nil
	})
}
