package integration

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/app"
	"github.com/asapjs/fiber-template/migrations"
	"github.com/asapjs/fiber-template/platform/database"
)

// TestTheModelsDeclareWhatTheMigrationsCreate builds the service's tables
// twice on each database: once by its migrations, the schema production
// runs, and once by Sync from the models' declarations, which /sync and the
// DBML read. The indexes of every model table must be the same in both:
// an index added to a migration and not to the model's Indexes (or the
// reverse) fails here.
func TestTheModelsDeclareWhatTheMigrationsCreate(t *testing.T) {
	t.Parallel()
	for _, b := range devBackends() {
		t.Run("on "+b.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()

			migrated := openDB(t, b.dsn(t))
			if err := migrations.Up(ctx, migrated); err != nil {
				t.Fatalf("migrate: %v", err)
			}
			synced := openDB(t, b.dsn(t))
			catalog := database.NewCatalog(synced, app.Models()...)
			if err := catalog.Err(); err != nil {
				t.Fatalf("catalog: %v", err)
			}
			report, err := catalog.Sync(ctx)
			if err != nil {
				t.Fatalf("sync: %v", err)
			}
			if len(report.Created) == 0 {
				t.Fatal("sync created no table")
			}
			for _, table := range report.Created {
				fromMigrations := indexDefinitions(t, migrated, b.dialect, table)
				fromModels := indexDefinitions(t, synced, b.dialect, table)
				if !slices.Equal(fromMigrations, fromModels) {
					t.Errorf("table %s:\n the migrations create %q\n the models declare %q",
						table, fromMigrations, fromModels)
				}
			}
		})
	}
}

// indexDefinitions describes every index of table as the database's own
// catalog has it, sorted: on PostgreSQL the definition pg_indexes
// prints (with the schema left out), on SQLite the name, uniqueness and
// indexed columns. Names of indexes SQLite makes for UNIQUE constraints
// depend on the order of the constraints, so those are named by their
// columns.
func indexDefinitions(t *testing.T, db *bun.DB, dialect database.Dialect, table string) []string {
	t.Helper()
	ctx := context.Background()
	var defs []string
	if dialect == database.Postgres {
		err := db.NewRaw("SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = ?", table).
			Scan(ctx, &defs)
		if err != nil {
			t.Fatalf("indexes of %s: %v", table, err)
		}
		schema := regexp.MustCompile(` ON [a-z0-9_]+\.`)
		for i, d := range defs {
			defs[i] = schema.ReplaceAllString(d, " ON ")
		}
		slices.Sort(defs)
		return defs
	}
	var list []struct {
		Seq     int
		Name    string
		Unique  bool
		Origin  string
		Partial bool
	}
	if err := db.NewRaw("SELECT seq, name, \"unique\", origin, partial FROM pragma_index_list(?)", table).Scan(ctx, &list); err != nil {
		t.Fatalf("indexes of %s: %v", table, err)
	}
	for _, ix := range list {
		var columns []string
		err := db.NewRaw("SELECT coalesce(name, '<expression>') FROM pragma_index_info(?) ORDER BY seqno", ix.Name).Scan(ctx, &columns)
		if err != nil {
			t.Fatalf("columns of index %s: %v", ix.Name, err)
		}
		name := ix.Name
		if strings.HasPrefix(name, "sqlite_autoindex_") {
			name = "(constraint)"
		}
		defs = append(defs, fmt.Sprintf("%s unique=%t origin=%s partial=%t (%s)",
			name, ix.Unique, ix.Origin, ix.Partial, strings.Join(columns, ", ")))
	}
	slices.Sort(defs)
	return defs
}
