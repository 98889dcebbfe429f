package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asapjs/fiber-template/platform/database"
)

// env returns a lookupEnv over the pairs.
func env(pairs map[string]string) func(string) (string, bool) {
	return func(key string) (string, bool) {
		v, ok := pairs[key]
		return v, ok
	}
}

func TestMigrateOnStartSetting(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		value   map[string]string
		want    bool
		wantErr bool
	}{
		{"it is on by default", map[string]string{}, true, false},
		{"it can be turned off", map[string]string{"MIGRATE_ON_START": "false"}, false, false},
		{"it can be turned on", map[string]string{"MIGRATE_ON_START": "true"}, true, false},
		{"anything but a boolean is refused", map[string]string{"MIGRATE_ON_START": "sometimes"}, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg, err := loadConfig(env(tt.value))
			if tt.wantErr {
				if err == nil || !strings.Contains(err.Error(), "MIGRATE_ON_START") {
					t.Fatalf("error %v, want one naming MIGRATE_ON_START", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.MigrateOnStart != tt.want {
				t.Errorf("MigrateOnStart = %v, want %v", cfg.MigrateOnStart, tt.want)
			}
		})
	}
}

func TestMigrateCommand(t *testing.T) {
	t.Parallel()
	dsn := "sqlite:" + filepath.Join(t.TempDir(), "app.db")
	lookup := env(map[string]string{"DATABASE_URL": dsn, "JWT_SECRET": "test-secret"})
	migrate := func(t *testing.T, action string) string {
		t.Helper()
		var out bytes.Buffer
		if err := run(t.Context(), []string{"migrate", action}, lookup, &out); err != nil {
			t.Fatalf("migrate %s: %v\n%s", action, err, out.String())
		}
		return out.String()
	}
	steps := []struct {
		action string
		want   string
	}{
		{"status", "pending"},
		{"up", "migrated to group #1"},
		{"up", "nothing to migrate"},
		{"status", "applied"},
		{"down", "rolled back group #1"},
		{"down", "nothing to roll back"},
		{"status", "pending"},
		{"up", "migrated to group #1"},
		{"unlock", "nothing to clear"},
	}
	// The steps share one database, so they run in order.
	for _, s := range steps {
		out := migrate(t, s.action)
		if !strings.Contains(out, s.want) {
			t.Fatalf("migrate %s wrote %q, want it to contain %q", s.action, out, s.want)
		}
	}

	t.Run("unlock clears the lock row a crashed migration left, with a warning", func(t *testing.T) {
		db, err := database.Open(t.Context(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := db.ExecContext(t.Context(), "INSERT INTO bun_migration_locks (table_name) VALUES ('bun_migrations')"); err != nil {
			t.Fatalf("leave a lock row behind: %v", err)
		}
		var out bytes.Buffer
		if err := run(t.Context(), []string{"migrate", "up"}, lookup, &out); err == nil || !strings.Contains(err.Error(), "migrate unlock") {
			t.Fatalf("migrate up with a stale lock row: %v, want an error pointing at migrate unlock", err)
		}
		if got := migrate(t, "unlock"); !strings.Contains(got, "warning: cleared 1 stale migration lock row") {
			t.Errorf("migrate unlock wrote %q, want a warning that it cleared one row", got)
		}
		migrate(t, "up")
	})

	t.Run("an unknown action is refused", func(t *testing.T) {
		err := run(t.Context(), []string{"migrate", "sideways"}, lookup, io.Discard)
		if err == nil || !strings.Contains(err.Error(), "sideways") {
			t.Errorf("error %v, want one naming the action", err)
		}
	})
	t.Run("a missing action is refused", func(t *testing.T) {
		if err := run(t.Context(), []string{"migrate"}, lookup, io.Discard); err == nil {
			t.Error("no error")
		}
	})
}

func TestMigrateOnStart(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := database.Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "app.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg := config{MigrateLockTimeout: time.Second}
	// The second start finds nothing to do.
	for range 2 {
		if err := migrateOnStart(ctx, db, cfg, logger); err != nil {
			t.Fatal(err)
		}
	}
	var n int
	if err := db.NewSelect().TableExpr("users").ColumnExpr("count(*)").Scan(ctx, &n); err != nil {
		t.Fatalf("the users table is not there after start-up: %v", err)
	}
}

func TestMigrateLockTimeoutSetting(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		value   map[string]string
		want    time.Duration
		wantErr bool
	}{
		{"it is a minute by default", map[string]string{}, time.Minute, false},
		{"it takes a Go duration", map[string]string{"MIGRATE_LOCK_TIMEOUT": "2m30s"}, 150 * time.Second, false},
		{"a duration without a unit is refused", map[string]string{"MIGRATE_LOCK_TIMEOUT": "60"}, 0, true},
		{"a negative duration is refused", map[string]string{"MIGRATE_LOCK_TIMEOUT": "-1s"}, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg, err := loadConfig(env(tt.value))
			if tt.wantErr {
				if err == nil || !strings.Contains(err.Error(), "MIGRATE_LOCK_TIMEOUT") {
					t.Fatalf("error %v, want one naming MIGRATE_LOCK_TIMEOUT", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.MigrateLockTimeout != tt.want {
				t.Errorf("MigrateLockTimeout = %v, want %v", cfg.MigrateLockTimeout, tt.want)
			}
		})
	}
}
