package migrations

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
)

// Whether a counted login is still having its password checked: a login
// refused because of attempts in flight is told to retry once they end,
// not after the whole window. Failures counted before are complete.
func init() {
	Migrations.MustRegister(func(ctx context.Context, db *bun.DB) error {
		if _, err := db.ExecContext(ctx, `ALTER TABLE login_failures ADD COLUMN pending BOOLEAN NOT NULL DEFAULT FALSE`); err != nil {
			return fmt.Errorf("add login_failures.pending: %w", err)
		}
		return nil
	}, func(ctx context.Context, db *bun.DB) error {
		if _, err := db.ExecContext(ctx, `ALTER TABLE login_failures DROP COLUMN pending`); err != nil {
			return fmt.Errorf("drop login_failures.pending: %w", err)
		}
		return nil
	})
}
