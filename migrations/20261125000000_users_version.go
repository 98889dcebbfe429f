package migrations

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
)

// The version of each user, raised by every write of its representation:
// the entity tag of GET /users/{id} and the condition of a write with
// If-Match (UPDATE … WHERE id = ? AND version = ?). Existing users start
// at 1.
func init() {
	Migrations.MustRegister(func(ctx context.Context, db *bun.DB) error {
		if _, err := db.ExecContext(ctx, `ALTER TABLE users ADD COLUMN version BIGINT NOT NULL DEFAULT 1`); err != nil {
			return fmt.Errorf("add users.version: %w", err)
		}
		return nil
	}, func(ctx context.Context, db *bun.DB) error {
		if _, err := db.ExecContext(ctx, `ALTER TABLE users DROP COLUMN version`); err != nil {
			return fmt.Errorf("drop users.version: %w", err)
		}
		return nil
	})
}
