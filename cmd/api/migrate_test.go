package main

import (
	"bytes"
	"context"
	"encoding/json"
	"go/format"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/asapjs/fiber-template/internal/migrationversion"
	"github.com/asapjs/fiber-template/internal/testkit"
	"github.com/asapjs/fiber-template/migrations"
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
	migrate := func(t *testing.T, args ...string) string {
		t.Helper()
		var out bytes.Buffer
		if err := run(t.Context(), append([]string{"migrate"}, args...), lookup, &out); err != nil {
			t.Fatalf("migrate %s: %v\n%s", args, err, out.String())
		}
		return out.String()
	}
	all := migrations.Migrations.Sorted()
	newest, before := all[len(all)-1].String(), all[len(all)-2].String()
	steps := []struct {
		args []string
		want string
	}{
		{[]string{"status"}, "pending"},
		{[]string{"up"}, "migrated to group #1"},
		{[]string{"up"}, "nothing to migrate"},
		{[]string{"status"}, "applied"},
		// down rolls back one migration, the newest; redo the one before
		// it, which stays applied.
		{[]string{"down"}, "rolled back " + newest + " (of group #1)\n"},
		{[]string{"redo"}, "rolled back and applied again " + before + " (group #1)\n"},
		{[]string{"up"}, "migrated to group #2 (" + newest + ")\n"},
		// down --group rolls back what one up applied.
		{[]string{"down", "--group"}, "rolled back group #2 (" + newest + ")\n"},
		{[]string{"down", "--group"}, "rolled back group #1 ("},
		{[]string{"down"}, "nothing to roll back"},
		{[]string{"down", "--group"}, "nothing to roll back"},
		{[]string{"redo"}, "nothing to redo"},
		{[]string{"status"}, "pending"},
		{[]string{"up"}, "migrated to group #1"},
		{[]string{"unlock"}, "nothing to clear"},
	}
	// The steps share one database, so they run in order.
	for _, s := range steps {
		out := migrate(t, s.args...)
		if !strings.Contains(out, s.want) {
			t.Fatalf("migrate %s wrote %q, want it to contain %q", s.args, out, s.want)
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

	for _, args := range [][]string{{"sideways"}, {"down", "--all"}, {"down", "--group", "2"}, {"up", "now"}, {"redo", "--group"}} {
		t.Run(strings.Join(args, " ")+" is refused", func(t *testing.T) {
			err := run(t.Context(), append([]string{"migrate"}, args...), lookup, io.Discard)
			if err == nil || !strings.Contains(err.Error(), args[len(args)-1]) || !strings.Contains(err.Error(), "down [--group], redo") {
				t.Errorf("error %v, want one naming %s and the actions", err, args[len(args)-1])
			}
		})
	}
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

func TestMigrateRefusesAVersionAppliedUnderAnotherName(t *testing.T) {
	t.Parallel()
	dsn := "sqlite:" + filepath.Join(t.TempDir(), "app.db")
	lookup := env(map[string]string{"DATABASE_URL": dsn, "JWT_SECRET": "test-secret"})
	if err := run(t.Context(), []string{"migrate", "up"}, lookup, io.Discard); err != nil {
		t.Fatal(err)
	}
	// As if the newest migration's file had been given the version of one
	// this database applied before under the name create_gadgets.
	db, err := database.Open(t.Context(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	all := migrations.Migrations.Sorted()
	newest := all[len(all)-1]
	if _, err := db.NewUpdate().TableExpr("migration_names").Set("name = ?", "create_gadgets").Where("version = ?", newest.Name).Exec(t.Context()); err != nil {
		t.Fatal(err)
	}
	want := "migration " + newest.Name + " was applied to this database as create_gadgets, but the migration with that version is now " + newest.Comment
	for name, start := range map[string]func() error{
		"migrate up": func() error { return run(t.Context(), []string{"migrate", "up"}, lookup, io.Discard) },
		"migrate-on-start": func() error {
			return migrateOnStart(t.Context(), db, config{MigrateLockTimeout: time.Second}, slog.New(slog.NewTextHandler(io.Discard, nil)))
		},
	} {
		if err := start(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one saying %q", name, err, want)
		}
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

// migrationsWith returns a new directory holding empty files of the names.
func migrationsWith(t *testing.T, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range names {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// copyOfMigrations returns a copy of the Go files of the repository's
// migrations package, tests left out, in a directory named migrations.
func copyOfMigrations(t *testing.T) string {
	t.Helper()
	src := filepath.Join(testkit.RepoRoot(t), migrationsDir)
	dst := filepath.Join(t.TempDir(), migrationsDir)
	if err := os.Mkdir(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(src, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, filepath.Base(f)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// newMigration runs migrate new name in dir at now and returns the file
// it wrote.
func newMigration(t *testing.T, dir, name string, now time.Time) string {
	t.Helper()
	var out bytes.Buffer
	if err := migrateNew([]string{name}, dir, now, &out); err != nil {
		t.Fatalf("migrate new %s: %v", name, err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*_"+name+".go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.Contains(out.String(), filepath.Base(f)) {
			return f
		}
	}
	t.Fatalf("migrate new %s wrote %q, naming none of %v", name, out.String(), files)
	return ""
}

func TestMigrateNewVersions(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 4, 5, 6, 7, 800_000_000, time.FixedZone("CET", 3600))
	tests := []struct {
		name     string
		existing []string
		runs     int
		want     []string
	}{
		{"the first is now in UTC, to the second", nil, 1, []string{"20260304040607_add_orders_index.go"}},
		{"older migrations leave it at now", []string{"20250601000000_create_users.go"}, 1, []string{"20260304040607_add_orders_index.go"}},
		{"two within a second get one second apart", nil, 2, []string{"20260304040607_add_orders_index.go", "20260304040608_add_orders_index.go"}},
		{"one dated ahead is followed, not preceded", []string{"20270101000000_ahead.go"}, 1, []string{"20270101000001_add_orders_index.go"}},
		{"one dated this second is followed", []string{"20260304040607_same_second.go"}, 1, []string{"20260304040608_add_orders_index.go"}},
		{"files that are no migrations do not count", []string{"20990101000000_x_test.go", "99999999999999.go", "doc.go"}, 1, []string{"20260304040607_add_orders_index.go"}},
		{"a version issued to a file since deleted is not issued again", []string{"versions.txt"}, 1, []string{"20270101000004_add_orders_index.go"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := migrationsWith(t, tt.existing...)
			if slices.Contains(tt.existing, migrationversion.LedgerFile) {
				if err := os.WriteFile(filepath.Join(dir, migrationversion.LedgerFile), []byte("20270101000003 create_gadgets\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var got []string
			for range tt.runs {
				got = append(got, filepath.Base(newMigration(t, dir, "add_orders_index", now)))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("wrote %v, want %v", got, tt.want)
			}
			// Each is in the ledger, under its own name.
			if err := migrationversion.Check(dir); err != nil {
				t.Errorf("the ledger after migrate new: %v", err)
			}
		})
	}
}

func TestMigrateNewRefuses(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	tests := []struct {
		name    string
		args    []string
		dir     func(t *testing.T) string
		wantErr string
	}{
		{"no NAME", nil, func(t *testing.T) string { return migrationsWith(t) }, "want one NAME"},
		{"two NAMEs", []string{"a", "b"}, func(t *testing.T) string { return migrationsWith(t) }, "want one NAME"},
		{"upper case", []string{"AddOrders"}, func(t *testing.T) string { return migrationsWith(t) }, "snake_case"},
		{"a dash", []string{"add-orders"}, func(t *testing.T) string { return migrationsWith(t) }, "snake_case"},
		{"a leading digit", []string{"1_add"}, func(t *testing.T) string { return migrationsWith(t) }, "snake_case"},
		{"a double underscore", []string{"add__orders"}, func(t *testing.T) string { return migrationsWith(t) }, "snake_case"},
		{"a trailing underscore", []string{"add_"}, func(t *testing.T) string { return migrationsWith(t) }, "snake_case"},
		{"a path", []string{"../add"}, func(t *testing.T) string { return migrationsWith(t) }, "snake_case"},
		{"no migrations directory", []string{"add"}, func(t *testing.T) string { return filepath.Join(t.TempDir(), "none") }, "repository root"},
		{"a version that is no time", []string{"add"}, func(t *testing.T) string { return migrationsWith(t, "20261399000000_bad.go") }, "20261399000000_bad.go"},
		{"a file in the way", []string{"add"}, func(t *testing.T) string {
			// A directory is passed over when versions are counted, so
			// only the refusal to overwrite stands between it and the
			// new file.
			dir := migrationsWith(t)
			if err := os.Mkdir(filepath.Join(dir, "20260304050607_add.go"), 0o755); err != nil {
				t.Fatal(err)
			}
			return dir
		}, "not overwriting"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := tt.dir(t)
			before, _ := os.ReadDir(dir)
			err := migrateNew(tt.args, dir, now, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
			}
			if after, _ := os.ReadDir(dir); len(after) != len(before) {
				t.Errorf("the directory had %d entries and has %d: a refused migrate new wrote", len(before), len(after))
			}
		})
	}
}

func TestMigrateNewCompiles(t *testing.T) {
	t.Parallel()
	dir := copyOfMigrations(t)
	now := time.Now()
	// Two in one second, after every migration the repository has.
	written := []string{newMigration(t, dir, "add_orders_index", now), newMigration(t, dir, "add_orders_index", now)}
	if written[0] == written[1] {
		t.Fatalf("both runs wrote %s", written[0])
	}
	existing, err := migrationversion.Files(filepath.Join(testkit.RepoRoot(t), migrationsDir))
	if err != nil || len(existing) == 0 {
		t.Fatalf("the repository's migrations: %v %v", existing, err)
	}
	if newest := existing[len(existing)-1].File(); filepath.Base(written[0]) <= newest {
		t.Errorf("%s does not sort after the newest migration %s", filepath.Base(written[0]), newest)
	}

	// The files are vetted as part of the package, through an overlay, so
	// that the repository's migrations directory is never written.
	replace := map[string]string{}
	for _, f := range written {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if formatted, err := format.Source(src); err != nil || !bytes.Equal(formatted, src) {
			t.Errorf("%s is not gofmt-formatted (%v)", filepath.Base(f), err)
		}
		replace[filepath.Join(testkit.RepoRoot(t), migrationsDir, filepath.Base(f))] = f
	}
	overlay, err := json.Marshal(map[string]any{"Replace": replace})
	if err != nil {
		t.Fatal(err)
	}
	overlayFile := filepath.Join(t.TempDir(), "overlay.json")
	if err := os.WriteFile(overlayFile, overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	testkit.Go(t, testkit.RepoRoot(t), nil, "vet", "-overlay="+overlayFile, "./"+migrationsDir)
}
