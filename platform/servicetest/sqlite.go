package servicetest

import (
	"path/filepath"
	"testing"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/platform/database"
)

// SQLite opens a new SQLite database in a file of t's temporary directory,
// closed when t ends.
func SQLite(t testing.TB) *bun.DB {
	t.Helper()
	db, err := database.Open(t.Context(), "sqlite:"+filepath.Join(t.TempDir(), "test.db"))
	if err != nil {
		t.Fatalf("servicetest: open SQLite: %v", err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}
