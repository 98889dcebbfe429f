package migrations

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/platform/database"
)

// usersSearchIndexes are the trigram indexes that serve the users search
// (q: LOWER(name) LIKE '%text%' OR LOWER(email) LIKE '%text%') on
// PostgreSQL, by name and indexed expression.
var usersSearchIndexes = [][2]string{
	{"users_name_trgm_idx", "lower(name)"},
	{"users_email_trgm_idx", "lower(email)"},
}

func init() {
	Migrations.MustRegister(func(ctx context.Context, db *bun.DB) error {
		if db.Dialect().Name().String() != "pg" {
			return nil // SQLite keeps the plain path: a scan of the filtered rows.
		}
		return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			// pg_trgm is trusted since PostgreSQL 13, so a database owner
			// may create it; without it the search still works, unindexed.
			ok, err := database.CreateExtension(ctx, tx, "pg_trgm")
			if err != nil {
				return err
			}
			if !ok {
				slog.WarnContext(ctx, "pg_trgm is not available: the users search (q) runs without trigram indexes; "+
					"install the extension, then roll this migration back and apply it again to add them")
				return nil
			}
			for _, ix := range usersSearchIndexes {
				if _, err := tx.ExecContext(ctx, "CREATE INDEX IF NOT EXISTS ? ON users USING gin ("+ix[1]+" gin_trgm_ops)", bun.Ident(ix[0])); err != nil {
					return fmt.Errorf("create index %s: %w", ix[0], err)
				}
			}
			return nil
		})
	}, func(ctx context.Context, db *bun.DB) error {
		if db.Dialect().Name().String() != "pg" {
			return nil
		}
		for _, ix := range usersSearchIndexes {
			if _, err := db.ExecContext(ctx, "DROP INDEX IF EXISTS ?", bun.Ident(ix[0])); err != nil {
				return fmt.Errorf("drop index %s: %w", ix[0], err)
			}
		}
		return nil
	})
}
