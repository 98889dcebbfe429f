package integration

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/migrations"
	"github.com/asapjs/fiber-template/platform/database"
)

func TestUserIndexes(t *testing.T) {
	t.Parallel()
	for _, b := range devBackends() {
		t.Run("on "+b.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			db := openDB(t, b.dsn(t))
			if err := migrations.Up(ctx, db); err != nil {
				t.Fatal(err)
			}
			indexes := catalog(t, db, b.dialect, true)
			want := []string{"users_role_idx", "users_active_idx"}
			if b.dialect == database.Postgres {
				want = append(want, "users_name_trgm_idx", "users_email_trgm_idx")
			}
			t.Run("the migrations index every list filter the database can serve", func(t *testing.T) {
				for _, ix := range want {
					if !slices.Contains(indexes, ix) {
						t.Errorf("indexes %v lack %s", indexes, ix)
					}
				}
				if b.dialect == database.SQLite && slices.ContainsFunc(indexes, func(s string) bool { return strings.Contains(s, "trgm") }) {
					t.Errorf("SQLite has trigram indexes: %v", indexes)
				}
			})
			if b.dialect != database.Postgres {
				return
			}
			t.Run("the search can use the trigram indexes", func(t *testing.T) {
				// The table is empty, so a scan would win: the plan without
				// one shows that the indexes serve the search.
				var plan []string
				err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
					if _, err := tx.ExecContext(ctx, "SET LOCAL enable_seqscan = off"); err != nil {
						return err
					}
					return tx.NewRaw("EXPLAIN SELECT id FROM users WHERE lower(name) LIKE lower('%smith%') OR lower(email) LIKE lower('%smith%')").Scan(ctx, &plan)
				})
				if err != nil {
					t.Fatal(err)
				}
				text := strings.Join(plan, "\n")
				if !strings.Contains(text, "users_name_trgm_idx") || !strings.Contains(text, "users_email_trgm_idx") {
					t.Errorf("the plan uses neither trigram index:\n%s", text)
				}
			})
			t.Run("rolling back drops them", func(t *testing.T) {
				if _, err := migrations.Rollback(ctx, migrations.NewMigrator(db)); err != nil {
					t.Fatal(err)
				}
				if left := catalog(t, db, b.dialect, true); slices.Contains(left, "users_name_trgm_idx") {
					t.Errorf("after Rollback the indexes are %v", left)
				}
			})
		})
	}
}
