package migrations

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// The tables of sessions and login throttling as this migration creates
// them: copies of the models at the time, so later changes to the models
// cannot rewrite history.
type (
	sessionsV1 struct {
		bun.BaseModel `bun:"table:sessions"`

		ID        string       `bun:"id,pk"`
		UserID    int64        `bun:"user_id,notnull"`
		CreatedAt time.Time    `bun:"created_at,notnull,nullzero,default:current_timestamp"`
		ExpiresAt time.Time    `bun:"expires_at,notnull"`
		RevokedAt bun.NullTime `bun:"revoked_at"`
	}
	refreshTokensV1 struct {
		bun.BaseModel `bun:"table:refresh_tokens"`

		Hash      string       `bun:"hash,pk"`
		SessionID string       `bun:"session_id,notnull"`
		CreatedAt time.Time    `bun:"created_at,notnull,nullzero,default:current_timestamp"`
		RotatedAt bun.NullTime `bun:"rotated_at"`
	}
	revocationsV1 struct {
		bun.BaseModel `bun:"table:revocations"`

		SessionID string    `bun:"session_id,pk"`
		ExpiresAt time.Time `bun:"expires_at,notnull"`
	}
	loginFailuresV1 struct {
		bun.BaseModel `bun:"table:login_failures"`

		ID       int64     `bun:"id,pk,autoincrement"`
		Email    string    `bun:"email,notnull"`
		Address  string    `bun:"address,notnull"`
		FailedAt time.Time `bun:"failed_at,notnull"`
	}
)

func init() {
	Migrations.MustRegister(func(ctx context.Context, db *bun.DB) error {
		return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			tables := []struct {
				model any
				fk    string
			}{
				{(*sessionsV1)(nil), "(user_id) REFERENCES users (id) ON DELETE CASCADE"},
				{(*refreshTokensV1)(nil), "(session_id) REFERENCES sessions (id) ON DELETE CASCADE"},
				{(*revocationsV1)(nil), ""},
				{(*loginFailuresV1)(nil), ""},
			}
			for _, t := range tables {
				q := tx.NewCreateTable().Model(t.model).IfNotExists()
				if t.fk != "" {
					q = q.ForeignKey(t.fk)
				}
				if _, err := q.Exec(ctx); err != nil {
					return fmt.Errorf("create table %s: %w", q.GetTableName(), err)
				}
			}
			indexes := []struct {
				model   any
				name    string
				columns []string
			}{
				{(*sessionsV1)(nil), "sessions_user_id_idx", []string{"user_id"}},
				{(*refreshTokensV1)(nil), "refresh_tokens_session_id_idx", []string{"session_id"}},
				{(*revocationsV1)(nil), "revocations_expires_at_idx", []string{"expires_at"}},
				{(*loginFailuresV1)(nil), "login_failures_email_address_idx", []string{"email", "address", "failed_at"}},
			}
			for _, ix := range indexes {
				if _, err := tx.NewCreateIndex().Model(ix.model).Index(ix.name).Column(ix.columns...).IfNotExists().Exec(ctx); err != nil {
					return fmt.Errorf("create index %s: %w", ix.name, err)
				}
			}
			return nil
		})
	}, func(ctx context.Context, db *bun.DB) error {
		for _, m := range []any{(*loginFailuresV1)(nil), (*revocationsV1)(nil), (*refreshTokensV1)(nil), (*sessionsV1)(nil)} {
			q := db.NewDropTable().Model(m).IfExists()
			if _, err := q.Exec(ctx); err != nil {
				return fmt.Errorf("drop table %s: %w", q.GetTableName(), err)
			}
		}
		return nil
	})
}
