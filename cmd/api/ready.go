package main

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/migrations"
)

// migrationsReady is the router extension that keeps /readyz at 503 while
// the database lacks a migration this binary knows, or applied one of its
// versions under another name (which migrate up refuses): an instance of a
// new version gets traffic only once its schema is there.
type migrationsReady struct {
	db *bun.DB
}

// Name identifies the extension.
func (migrationsReady) Name() string { return "migrations" }

// CheckReady reads the applied migrations, without the migration lock so
// that a probe never waits behind a running migration.
func (m migrationsReady) CheckReady(ctx context.Context) error {
	migrator := migrations.NewMigrator(m.db)
	ms, err := migrator.MigrationsWithStatus(ctx)
	if err != nil {
		return fmt.Errorf("read migrations: %w", err)
	}
	if pending := ms.Unapplied(); len(pending) > 0 {
		return fmt.Errorf("%d migration(s) not applied, the first %s", len(pending), pending[0].Name)
	}
	return migrations.CheckNames(ctx, migrator)
}
