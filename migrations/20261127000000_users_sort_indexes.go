package migrations

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
)

// usersSortIndexes serve the sorts of the users list: each key with the id
// that breaks its ties, so that a deep page by cursor, either way, is an
// index range scan like the first page. The email's unique index serves
// its sort already.
var usersSortIndexes = [][2]string{
	{"users_created_at_id_idx", "created_at, id"},
	{"users_name_id_idx", "name, id"},
}

func init() {
	Migrations.MustRegister(func(ctx context.Context, db *bun.DB) error {
		for _, ix := range usersSortIndexes {
			if _, err := db.ExecContext(ctx, "CREATE INDEX IF NOT EXISTS "+ix[0]+" ON users ("+ix[1]+")"); err != nil {
				return fmt.Errorf("create index %s: %w", ix[0], err)
			}
		}
		return nil
	}, func(ctx context.Context, db *bun.DB) error {
		for _, ix := range usersSortIndexes {
			if _, err := db.ExecContext(ctx, "DROP INDEX IF EXISTS "+ix[0]); err != nil {
				return fmt.Errorf("drop index %s: %w", ix[0], err)
			}
		}
		return nil
	})
}
