package migrations_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/migrations"
	"github.com/asapjs/fiber-template/platform/database"
)

// tableExists reports whether db has a table or index named name.
func tableExists(t *testing.T, db *bun.DB, name string) bool {
	t.Helper()
	var n int
	err := db.NewSelect().TableExpr("sqlite_master").ColumnExpr("count(*)").
		Where("name = ?", name).Scan(context.Background(), &n)
	if err != nil {
		t.Fatal(err)
	}
	return n > 0
}

func TestUpAndRollback(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := database.Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "app.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()

	if err := migrations.Up(ctx, db); err != nil {
		t.Fatalf("first Up: %v", err)
	}
	for _, name := range []string{"users", "users_role_idx", "users_active_idx"} {
		if !tableExists(t, db, name) {
			t.Errorf("after Up there is no %s", name)
		}
	}
	if err := migrations.Up(ctx, db); err != nil {
		t.Fatalf("Up on an up-to-date database: %v", err)
	}

	m := migrations.NewMigrator(db)
	group, err := migrations.Rollback(ctx, m)
	if err != nil {
		t.Fatalf("Rollback: %v", err)
	}
	if len(group.Migrations) != len(migrations.Migrations.Sorted()) {
		t.Errorf("Rollback undid %s, want every migration, since one Up applied them all", group)
	}
	if tableExists(t, db, "users") {
		t.Error("after Rollback the users table is still there")
	}
	ms, err := migrations.Status(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	if applied := ms.Applied(); len(applied) != 0 {
		t.Errorf("after Rollback %s are still applied", applied)
	}
	if err := migrations.Up(ctx, db); err != nil {
		t.Fatalf("Up after Rollback: %v", err)
	}
	if !tableExists(t, db, "users") {
		t.Error("Up after Rollback did not create the users table again")
	}
}
