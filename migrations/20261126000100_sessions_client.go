package migrations

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
)

// The client a session was begun from, as its user sees it in the list of
// its sessions: the client address and the User-Agent of the login.
// Sessions begun before are listed with both empty.
func init() {
	Migrations.MustRegister(func(ctx context.Context, db *bun.DB) error {
		return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			for _, q := range []string{
				`ALTER TABLE sessions ADD COLUMN address VARCHAR(64) NOT NULL DEFAULT ''`,
				`ALTER TABLE sessions ADD COLUMN user_agent VARCHAR(256) NOT NULL DEFAULT ''`,
			} {
				if _, err := tx.ExecContext(ctx, q); err != nil {
					return fmt.Errorf("add the client of sessions: %w", err)
				}
			}
			return nil
		})
	}, func(ctx context.Context, db *bun.DB) error {
		return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			for _, column := range []string{"address", "user_agent"} {
				if _, err := tx.ExecContext(ctx, `ALTER TABLE sessions DROP COLUMN `+column); err != nil {
					return fmt.Errorf("drop sessions.%s: %w", column, err)
				}
			}
			return nil
		})
	})
}
