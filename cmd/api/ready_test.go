package main

import (
	"errors"
	"testing"

	"github.com/asapjs/fiber-template/migrations"
	"github.com/asapjs/fiber-template/platform/servicetest"
)

func TestMigrationsReady(t *testing.T) {
	t.Parallel()
	db := servicetest.SQLite(t)
	ready := migrationsReady{db: db}

	t.Run("a database without the migrations is not ready", func(t *testing.T) {
		if err := ready.CheckReady(t.Context()); err == nil {
			t.Error("CheckReady = nil on an empty database")
		}
	})

	if err := migrations.Up(t.Context(), db); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	t.Run("it is ready once every migration is applied", func(t *testing.T) {
		if err := ready.CheckReady(t.Context()); err != nil {
			t.Errorf("CheckReady = %v", err)
		}
	})
	t.Run("a database migrated before the names were recorded is ready", func(t *testing.T) {
		if _, err := db.ExecContext(t.Context(), "ALTER TABLE migration_names RENAME TO migration_names_aside"); err != nil {
			t.Fatal(err)
		}
		defer func() {
			if _, err := db.ExecContext(t.Context(), "ALTER TABLE migration_names_aside RENAME TO migration_names"); err != nil {
				t.Fatal(err)
			}
		}()
		if err := ready.CheckReady(t.Context()); err != nil {
			t.Errorf("CheckReady = %v", err)
		}
	})
	t.Run("a version applied under another name is not ready", func(t *testing.T) {
		// As when the newest migration's file took the version of one
		// applied before, which migrate up refuses.
		all := migrations.Migrations.Sorted()
		newest := all[len(all)-1]
		if _, err := db.NewUpdate().TableExpr("migration_names").Set("name = ?", "create_gadgets").Where("version = ?", newest.Name).Exec(t.Context()); err != nil {
			t.Fatal(err)
		}
		if err := ready.CheckReady(t.Context()); !errors.Is(err, migrations.ErrRenamed) {
			t.Errorf("CheckReady = %v, want ErrRenamed", err)
		}
	})
}
