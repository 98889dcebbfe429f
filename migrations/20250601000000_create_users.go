package migrations

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// usersV1 is the users table as this migration creates it. It is a copy of
// models.User at the time, not the model itself, so that later changes to
// the model cannot rewrite history.
type usersV1 struct {
	bun.BaseModel `bun:"table:users"`

	ID           int64     `bun:"id,pk,autoincrement"`
	Email        string    `bun:"email,notnull,unique"`
	Name         string    `bun:"name,notnull"`
	PasswordHash string    `bun:"password_hash,notnull"`
	Role         string    `bun:"role,notnull"`
	Active       bool      `bun:"active,notnull"`
	CreatedAt    time.Time `bun:"created_at,notnull,nullzero,default:current_timestamp"`
}

func init() {
	Migrations.MustRegister(func(ctx context.Context, db *bun.DB) error {
		return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			if _, err := tx.NewCreateTable().Model((*usersV1)(nil)).IfNotExists().Exec(ctx); err != nil {
				return fmt.Errorf("create table users: %w", err)
			}
			// The list filters by role and active flag.
			for _, col := range []string{"role", "active"} {
				if _, err := tx.NewCreateIndex().Model((*usersV1)(nil)).
					Index("users_" + col + "_idx").Column(col).IfNotExists().Exec(ctx); err != nil {
					return fmt.Errorf("create index on users.%s: %w", col, err)
				}
			}
			return nil
		})
	}, func(ctx context.Context, db *bun.DB) error {
		if _, err := db.NewDropTable().Model((*usersV1)(nil)).IfExists().Exec(ctx); err != nil {
			return fmt.Errorf("drop table users: %w", err)
		}
		return nil
	})
}
