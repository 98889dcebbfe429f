package database_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asapjs/fiber-template/platform/database"
)

func TestDialectOf(t *testing.T) {
	t.Parallel()
	cases := []struct {
		dsn  string
		want database.Dialect
	}{
		{"postgres://u:p@localhost:5432/app", database.Postgres},
		{"postgresql://localhost/app?sslmode=disable", database.Postgres},
		{"", database.SQLite},
		{"sqlite:./data/app.db", database.SQLite},
		{"sqlite::memory:", database.SQLite},
		{"file:app.db?cache=shared", database.SQLite},
	}
	for _, tc := range cases {
		t.Run(tc.dsn+" is "+string(tc.want), func(t *testing.T) {
			got, err := database.DialectOf(tc.dsn)
			if err != nil || got != tc.want {
				t.Fatalf("DialectOf(%q) = %q, %v", tc.dsn, got, err)
			}
		})
	}
	t.Run("another scheme is an error that hides the password", func(t *testing.T) {
		_, err := database.DialectOf("mysql://root:hunter2@localhost/app")
		if err == nil || strings.Contains(err.Error(), "hunter2") {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestOpenSQLite(t *testing.T) {
	ctx := context.Background()
	t.Run("an empty DSN opens ./data/app.db, creating the directory", func(t *testing.T) {
		t.Chdir(t.TempDir())
		db, err := database.Open(ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := db.ExecContext(ctx, "CREATE TABLE t (id INTEGER)"); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join("data", "app.db")); err != nil {
			t.Fatalf("database file: %v", err)
		}
	})
	t.Run("a file database gets WAL synced at every commit, a busy timeout and foreign keys", func(t *testing.T) {
		t.Parallel()
		db, err := database.Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "nested", "app.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		// synchronous 2 is FULL.
		pragmas := map[string]string{"journal_mode": "wal", "synchronous": "2", "busy_timeout": "5000", "foreign_keys": "1"}
		for name, want := range pragmas {
			var got string
			if err := db.NewRaw("PRAGMA "+name).Scan(ctx, &got); err != nil {
				t.Fatalf("PRAGMA %s: %v", name, err)
			}
			if got != want {
				t.Errorf("PRAGMA %s = %q, want %q", name, got, want)
			}
		}
		if database.DialectOfDB(db) != database.SQLite {
			t.Fatal("dialect is not SQLite")
		}
	})
	t.Run("a database that cannot be reached is an error", func(t *testing.T) {
		t.Parallel()
		if _, err := database.Open(ctx, "postgres://nobody:secret@127.0.0.1:1/none?connect_timeout=2"); err == nil {
			t.Fatal("Open succeeded")
		}
	})
}
