package migrations_test

import (
	"testing"

	"github.com/asapjs/fiber-template/internal/migrationversion"
	"github.com/asapjs/fiber-template/migrations"
)

// TestEveryMigrationIsInTheLedger checks that versions.txt records every
// migration of this directory under its own name: a hand-written migration
// missing from it could see its version issued again once its file is
// gone, and one copied under a version issued to another would never run
// where that one was applied.
func TestEveryMigrationIsInTheLedger(t *testing.T) {
	t.Parallel()
	if err := migrationversion.Check("."); err != nil {
		t.Error(err)
	}
	files, err := migrationversion.Files(".")
	if err != nil {
		t.Fatal(err)
	}
	if registered := migrations.Migrations.Sorted(); len(files) != len(registered) {
		t.Errorf("the directory has %d migration files, the package registers %d migrations", len(files), len(registered))
	}
}
