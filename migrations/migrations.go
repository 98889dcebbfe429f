package migrations

import (
	"context"
	"errors"
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
func Up(ctx context.Context, db *bun.DB) error {
	_, err := Migrate(ctx, NewMigrator(db))
	return err
}

// Migrate applies the pending migrations with m and returns the group they
// form, empty when there were none. The migration lock keeps two processes
// starting at once from applying the same migration twice; the one that
// does not get it fails.
func Migrate(ctx context.Context, m *migrate.Migrator) (*migrate.MigrationGroup, error) {
	var group *migrate.MigrationGroup
	err := locked(ctx, m, func() error {
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
func Rollback(ctx context.Context, m *migrate.Migrator) (*migrate.MigrationGroup, error) {
	var group *migrate.MigrationGroup
	err := locked(ctx, m, func() error {
		var err error
		group, err = m.Rollback(ctx)
		return err
	})
	if err != nil {
		return group, fmt.Errorf("migrate down: %w", err)
	}
	return group, nil
}

// Status returns every migration with whether and when it was applied.
func Status(ctx context.Context, m *migrate.Migrator) (migrate.MigrationSlice, error) {
	if err := m.Init(ctx); err != nil {
		return nil, fmt.Errorf("migrate status: create migration tables: %w", err)
	}
	ms, err := m.MigrationsWithStatus(ctx)
	if err != nil {
		return nil, fmt.Errorf("migrate status: %w", err)
	}
	return ms, nil
}

// locked runs fn holding the migration lock, creating the migration tables
// first.
func locked(ctx context.Context, m *migrate.Migrator, fn func() error) error {
	if err := m.Init(ctx); err != nil {
		return fmt.Errorf("create migration tables: %w", err)
	}
	if err := m.Lock(ctx); err != nil {
		return fmt.Errorf("%w; if no other migration runs, a crashed one left the lock: release it with \"migrate unlock\"", err)
	}
	err := fn()
	// The lock is released even when ctx is done, or it would outlive us.
	if uerr := m.Unlock(context.WithoutCancel(ctx)); uerr != nil {
		err = errors.Join(err, fmt.Errorf("release migration lock: %w", uerr))
	}
	return err
}
