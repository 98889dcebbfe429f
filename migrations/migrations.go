package migrations

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

// Migrations are the migrations of the example service, registered by the
// files of this package.
var Migrations = migrate.NewMigrations()

// NewMigrator returns the migrator of Migrations on db. A migration is
// marked applied only once it succeeded, so a failed one runs again next
// time.
func NewMigrator(db *bun.DB) *migrate.Migrator {
	return migrate.NewMigrator(db, Migrations, migrate.WithMarkAppliedOnSuccess(true))
}

// Up applies the migrations db has not applied yet, as one group.
func Up(ctx context.Context, db *bun.DB, opts ...Option) error {
	_, err := Migrate(ctx, NewMigrator(db), opts...)
	return err
}

// Migrate applies the pending migrations with m and returns the group they
// form, empty when there were none. It holds the migration lock (see
// locked), so processes starting at once against one database apply each
// migration once: the first migrates, the others wait, then find nothing
// to do.
func Migrate(ctx context.Context, m *migrate.Migrator, opts ...Option) (*migrate.MigrationGroup, error) {
	group := new(migrate.MigrationGroup)
	err := locked(ctx, m, newOptions(opts), func(ctx context.Context) error {
		var err error
		group, err = m.Migrate(ctx)
		return err
	})
	if err != nil {
		return group, fmt.Errorf("migrate up: %w", err)
	}
	return group, nil
}

// Rollback rolls back the last group of migrations with m and returns it,
// empty when nothing was applied.
func Rollback(ctx context.Context, m *migrate.Migrator, opts ...Option) (*migrate.MigrationGroup, error) {
	group := new(migrate.MigrationGroup)
	err := locked(ctx, m, newOptions(opts), func(ctx context.Context) error {
		var err error
		group, err = m.Rollback(ctx)
		return err
	})
	if err != nil {
		return group, fmt.Errorf("migrate down: %w", err)
	}
	return group, nil
}

// Status returns every migration with whether and when it was applied. It
// takes the lock too, as it creates the migration tables of a fresh
// database.
func Status(ctx context.Context, m *migrate.Migrator, opts ...Option) (migrate.MigrationSlice, error) {
	var ms migrate.MigrationSlice
	err := locked(ctx, m, newOptions(opts), func(ctx context.Context) error {
		var err error
		ms, err = m.MigrationsWithStatus(ctx)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("migrate status: %w", err)
	}
	return ms, nil
}
