package migrations

import (
	"context"
	"errors"
	"fmt"
	"time"

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
// to do. It refuses, with ErrRenamed, a database that applied a version
// under another name than its migration has now (see namesTable).
func Migrate(ctx context.Context, m *migrate.Migrator, opts ...Option) (*migrate.MigrationGroup, error) {
	group := new(migrate.MigrationGroup)
	err := change(ctx, m, opts, "migrate up", func(ctx context.Context) (err error) {
		group, err = m.Migrate(ctx)
		return err
	})
	return group, err
}

// Rollback rolls back the last group of migrations with m (those one
// Migrate applied) and returns it, empty when nothing was applied.
func Rollback(ctx context.Context, m *migrate.Migrator, opts ...Option) (*migrate.MigrationGroup, error) {
	group := new(migrate.MigrationGroup)
	err := change(ctx, m, opts, "migrate down --group", func(ctx context.Context) (err error) {
		group, err = m.Rollback(ctx)
		return err
	})
	return group, err
}

// RollbackLast rolls back the last migration applied, alone: the newest of
// the last group, the one Rollback would undo first. It returns it, or nil
// when nothing was applied.
func RollbackLast(ctx context.Context, m *migrate.Migrator, opts ...Option) (*migrate.Migration, error) {
	var last *migrate.Migration
	err := change(ctx, m, opts, "migrate down", func(ctx context.Context) (err error) {
		last, err = rollbackLast(ctx, m)
		return err
	})
	return last, err
}

// Redo rolls back the last migration applied, as RollbackLast does, and
// applies it again, in the group it was in: what trying the down function
// of a migration being written takes. It returns the migration, or nil
// when nothing was applied.
func Redo(ctx context.Context, m *migrate.Migrator, opts ...Option) (*migrate.Migration, error) {
	var last *migrate.Migration
	err := change(ctx, m, opts, "migrate redo", func(ctx context.Context) (err error) {
		if last, err = rollbackLast(ctx, m); err == nil && last != nil {
			err = reapply(ctx, m, last)
		}
		return err
	})
	return last, err
}

// change runs op, which applies or rolls back migrations with m, holding
// the migration lock: after checkNames, and followed by recordNames, even
// when op failed halfway. Its error is wrapped with what, the command.
func change(ctx context.Context, m *migrate.Migrator, opts []Option, what string, op func(ctx context.Context) error) error {
	err := locked(ctx, m, newOptions(opts), func(ctx context.Context) error {
		if err := checkNames(ctx, m); err != nil {
			return err
		}
		return errors.Join(op(ctx), recordNames(ctx, m))
	})
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// rollbackLast runs the down function of the last migration applied and
// marks it unapplied once that succeeded (as NewMigrator's migrator does
// for a group). Bun's migrator rolls back whole groups only.
func rollbackLast(ctx context.Context, m *migrate.Migrator) (*migrate.Migration, error) {
	ms, err := m.MigrationsWithStatus(ctx)
	if err != nil {
		return nil, fmt.Errorf("read migrations: %w", err)
	}
	group := ms.LastGroup()
	if len(group.Migrations) == 0 {
		return nil, nil
	}
	last := group.Migrations[len(group.Migrations)-1]
	if last.Down != nil {
		if err := last.Down(ctx, m, &last); err != nil {
			return nil, fmt.Errorf("%s: down: %w", last, err)
		}
	}
	if err := m.MarkUnapplied(ctx, &last); err != nil {
		return nil, fmt.Errorf("%s: mark it unapplied: %w", last, err)
	}
	return &last, nil
}

// reapply runs the up function of mig, just rolled back, and marks it
// applied again in the group it was in.
func reapply(ctx context.Context, m *migrate.Migrator, mig *migrate.Migration) error {
	if mig.Up != nil {
		if err := mig.Up(ctx, m, mig); err != nil {
			return fmt.Errorf("%s was rolled back, and applying it again failed (fix its up function, then run migrate up): %w", mig, err)
		}
	}
	mig.ID, mig.MigratedAt = 0, time.Time{}
	if err := m.MarkApplied(ctx, mig); err != nil {
		return fmt.Errorf("%s: mark it applied: %w", mig, err)
	}
	return nil
}

// Status returns every migration with whether and when it was applied. It
// takes the lock too, as it creates the migration tables of a fresh
// database, and refuses as Migrate does a version applied under another
// name, which it would list as applied.
func Status(ctx context.Context, m *migrate.Migrator, opts ...Option) (migrate.MigrationSlice, error) {
	var ms migrate.MigrationSlice
	err := locked(ctx, m, newOptions(opts), func(ctx context.Context) error {
		if err := checkNames(ctx, m); err != nil {
			return err
		}
		var err error
		ms, err = m.MigrationsWithStatus(ctx)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("migrate status: %w", err)
	}
	return ms, nil
}
