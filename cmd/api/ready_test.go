package main

import (
	"testing"

	"github.com/asapjs/fiber-template/internal/testkit"
	"github.com/asapjs/fiber-template/migrations"
)

func TestMigrationsReady(t *testing.T) {
	t.Parallel()
	db := testkit.SQLite(t)
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
}
