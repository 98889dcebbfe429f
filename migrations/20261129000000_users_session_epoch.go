package migrations

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
)

// The session epoch of each user and when its sessions were last ended,
// both written in the transaction that ends them (a role change, a
// deactivation, a password change, "end every session", a delete): a
// login stores its session only if the epoch is still the one it read
// before checking the password and its request arrived after the last
// end, so no login in flight outlives such a change. Existing users start
// at epoch 0, never ended.
func init() {
	Migrations.MustRegister(func(ctx context.Context, db *bun.DB) error {
		for _, stmt := range []string{
			`ALTER TABLE users ADD COLUMN session_epoch BIGINT NOT NULL DEFAULT 0`,
			`ALTER TABLE users ADD COLUMN sessions_ended_at ` + timestampType(db),
		} {
			if _, err := db.ExecContext(ctx, stmt); err != nil {
				return fmt.Errorf("add the session epoch of users: %w", err)
			}
		}
		return nil
	}, func(ctx context.Context, db *bun.DB) error {
		for _, column := range []string{"sessions_ended_at", "session_epoch"} {
			if _, err := db.ExecContext(ctx, `ALTER TABLE users DROP COLUMN `+column); err != nil {
				return fmt.Errorf("drop users.%s: %w", column, err)
			}
		}
		return nil
	})
}

// timestampType is the column type Bun gives a time.Time on db's dialect.
func timestampType(db *bun.DB) string {
	if db.Dialect().Name() == dialect.PG {
		return "TIMESTAMPTZ"
	}
	return "TIMESTAMP"
}
