package migrations_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"

	"github.com/asapjs/fiber-template/migrations"
	"github.com/asapjs/fiber-template/platform/database"
)

// openSQLite returns a new SQLite database in a file of its own.
func openSQLite(t *testing.T) *bun.DB {
	t.Helper()
	db, err := database.Open(t.Context(), "sqlite:"+filepath.Join(t.TempDir(), "app.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// journal records the up and down functions that ran, in order.
type journal struct{ calls []string }

// note records call, in a journal that is not nil.
func (j *journal) note(call string) {
	if j != nil {
		j.calls = append(j.calls, call)
	}
}

// tableMigration is migration version_name: its up creates a table named
// name too, its down drops it, each noted in j (when not nil). failUp
// makes its up fail.
func tableMigration(j *journal, version, name string, failUp bool) migrate.Migration {
	return migrate.Migration{
		Name:    version,
		Comment: name,
		Up: func(ctx context.Context, m *migrate.Migrator, _ *migrate.Migration) error {
			j.note("up " + name)
			if failUp {
				return errors.New("the up function is not written yet")
			}
			_, err := m.DB().ExecContext(ctx, "CREATE TABLE "+name+" (id INTEGER PRIMARY KEY)")
			return err
		},
		Down: func(ctx context.Context, m *migrate.Migrator, _ *migrate.Migration) error {
			j.note("down " + name)
			_, err := m.DB().ExecContext(ctx, "DROP TABLE "+name)
			return err
		},
	}
}

// migratorOf returns a migrator of ms on db, as NewMigrator makes one.
func migratorOf(db *bun.DB, ms ...migrate.Migration) *migrate.Migrator {
	set := migrate.NewMigrations()
	for _, m := range ms {
		set.Add(m)
	}
	return migrate.NewMigrator(db, set, migrate.WithMarkAppliedOnSuccess(true))
}

// applied returns the names of the applied migrations of m with their
// groups, such as "create_a#1", in version order.
func applied(t *testing.T, m *migrate.Migrator) []string {
	t.Helper()
	ms, err := migrations.Status(t.Context(), m)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, mig := range ms {
		if mig.IsApplied() {
			out = append(out, fmt.Sprintf("%s#%d", mig.Comment, mig.GroupID))
		}
	}
	return out
}

func TestRollbackLastAndRedo(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db := openSQLite(t)
	j := new(journal)
	m := migratorOf(db,
		tableMigration(j, "20260101000000", "create_a", false),
		tableMigration(j, "20260101000001", "create_b", false),
		tableMigration(j, "20260101000002", "create_c", false))

	if _, err := migrations.Migrate(ctx, m); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name        string
		do          func() (*migrate.Migration, error)
		want        string // the migration it names, "" for none
		wantApplied []string
		wantCalls   []string
	}{
		{"down rolls back the newest of the last group alone", func() (*migrate.Migration, error) { return migrations.RollbackLast(ctx, m) },
			"20260101000002_create_c", []string{"create_a#1", "create_b#1"}, []string{"down create_c"}},
		{"down again rolls back the one before", func() (*migrate.Migration, error) { return migrations.RollbackLast(ctx, m) },
			"20260101000001_create_b", []string{"create_a#1"}, []string{"down create_b"}},
		{"up applies both again, as a group of their own", func() (*migrate.Migration, error) {
			_, err := migrations.Migrate(ctx, m)
			return nil, err
		}, "", []string{"create_a#1", "create_b#2", "create_c#2"}, []string{"up create_b", "up create_c"}},
		{"redo rolls back the last and applies it again, in its group", func() (*migrate.Migration, error) { return migrations.Redo(ctx, m) },
			"20260101000002_create_c", []string{"create_a#1", "create_b#2", "create_c#2"}, []string{"down create_c", "up create_c"}},
		{"down --group still rolls back the whole last group", func() (*migrate.Migration, error) {
			_, err := migrations.Rollback(ctx, m)
			return nil, err
		}, "", []string{"create_a#1"}, []string{"down create_c", "down create_b"}},
		{"down of the first leaves nothing applied", func() (*migrate.Migration, error) { return migrations.RollbackLast(ctx, m) },
			"20260101000000_create_a", nil, []string{"down create_a"}},
		{"down with nothing applied does nothing", func() (*migrate.Migration, error) { return migrations.RollbackLast(ctx, m) },
			"", nil, nil},
		{"redo with nothing applied does nothing", func() (*migrate.Migration, error) { return migrations.Redo(ctx, m) },
			"", nil, nil},
	}
	// The steps share one database, so they run in order.
	for _, s := range steps {
		j.calls = nil
		mig, err := s.do()
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		got := ""
		if mig != nil {
			got = mig.String()
		}
		if got != s.want {
			t.Errorf("%s: it answered %q, want %q", s.name, got, s.want)
		}
		if a := applied(t, m); !slices.Equal(a, s.wantApplied) {
			t.Errorf("%s: applied %v, want %v", s.name, a, s.wantApplied)
		}
		if !slices.Equal(j.calls, s.wantCalls) {
			t.Errorf("%s: ran %v, want %v", s.name, j.calls, s.wantCalls)
		}
	}
}

func TestRedoOfAnUpThatFails(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db := openSQLite(t)
	j := new(journal)
	good := tableMigration(j, "20260101000000", "create_a", false)
	if _, err := migrations.Migrate(ctx, migratorOf(db, good)); err != nil {
		t.Fatal(err)
	}
	// The up function, edited since, fails: redo rolls back and says so.
	m := migratorOf(db, tableMigration(j, "20260101000000", "create_a", true))
	_, err := migrations.Redo(ctx, m)
	if err == nil || !strings.Contains(err.Error(), "was rolled back, and applying it again failed") {
		t.Fatalf("error %v, want one saying it was rolled back and its up failed", err)
	}
	if a := applied(t, m); len(a) != 0 {
		t.Errorf("applied %v after a failed redo, want none", a)
	}
	if _, err := migrations.Migrate(ctx, migratorOf(db, good)); err != nil {
		t.Fatalf("migrate up with the up function fixed: %v", err)
	}
}

func TestAVersionAppliedUnderAnotherName(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	// No journal: the subtests run at once.
	gadgets := tableMigration(nil, "20261128000003", "create_gadgets", false)
	widgets := tableMigration(nil, "20261128000003", "create_widgets", false)
	widgetsOwn := tableMigration(nil, "20261128000004", "create_widgets", false)
	const says = "migration 20261128000003 was applied to this database as create_gadgets, but the migration with that version is now create_widgets"

	t.Run("every command refuses it, saying what happened and what to do", func(t *testing.T) {
		t.Parallel()
		db := openSQLite(t)
		if _, err := migrations.Migrate(ctx, migratorOf(db, gadgets)); err != nil {
			t.Fatal(err)
		}
		m := migratorOf(db, widgets)
		for name, run := range map[string]func() error{
			"up":           func() error { _, err := migrations.Migrate(ctx, m); return err },
			"down":         func() error { _, err := migrations.RollbackLast(ctx, m); return err },
			"down --group": func() error { _, err := migrations.Rollback(ctx, m); return err },
			"redo":         func() error { _, err := migrations.Redo(ctx, m); return err },
			"status":       func() error { _, err := migrations.Status(ctx, m); return err },
			"readiness":    func() error { return migrations.CheckNames(ctx, m) },
		} {
			err := run()
			if !errors.Is(err, migrations.ErrRenamed) || !strings.Contains(err.Error(), says) || !strings.Contains(err.Error(), "migrate new create_widgets") {
				t.Errorf("%s: error %v, want ErrRenamed saying %q and how to fix it", name, err, says)
			}
		}
		if _, err := db.ExecContext(ctx, "SELECT count(*) FROM create_gadgets"); err != nil {
			t.Errorf("the refused commands touched gadgets: %v", err)
		}
	})
	t.Run("a database older than the names learns them at its next migrate up", func(t *testing.T) {
		t.Parallel()
		db := openSQLite(t)
		if _, err := migrations.Migrate(ctx, migratorOf(db, gadgets)); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, "DROP TABLE migration_names"); err != nil {
			t.Fatal(err)
		}
		if err := migrations.CheckNames(ctx, migratorOf(db, widgets)); err != nil {
			t.Errorf("the readiness check without the names: %v, want nothing to refuse", err)
		}
		if _, err := migrations.Migrate(ctx, migratorOf(db, gadgets)); err != nil {
			t.Fatal(err)
		}
		if _, err := migrations.Migrate(ctx, migratorOf(db, widgets)); !errors.Is(err, migrations.ErrRenamed) {
			t.Errorf("error %v, want ErrRenamed", err)
		}
	})
	t.Run("a version of its own applies, the removed one's name is kept", func(t *testing.T) {
		t.Parallel()
		db := openSQLite(t)
		if _, err := migrations.Migrate(ctx, migratorOf(db, gadgets)); err != nil {
			t.Fatal(err)
		}
		// gadgets' file is gone, and widgets has a version of its own.
		if _, err := migrations.Migrate(ctx, migratorOf(db, widgetsOwn)); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, "SELECT count(*) FROM create_widgets"); err != nil {
			t.Errorf("no widgets table: %v", err)
		}
		if _, err := migrations.Migrate(ctx, migratorOf(db, widgets, widgetsOwn)); !errors.Is(err, migrations.ErrRenamed) {
			t.Errorf("a file of gadgets' version, named otherwise, later: error %v, want ErrRenamed", err)
		}
	})
	t.Run("a migration rolled back may come back under another name", func(t *testing.T) {
		t.Parallel()
		db := openSQLite(t)
		if _, err := migrations.Migrate(ctx, migratorOf(db, gadgets)); err != nil {
			t.Fatal(err)
		}
		if _, err := migrations.RollbackLast(ctx, migratorOf(db, gadgets)); err != nil {
			t.Fatal(err)
		}
		if _, err := migrations.Migrate(ctx, migratorOf(db, widgets)); err != nil {
			t.Fatalf("widgets, after gadgets was rolled back: %v", err)
		}
	})
}
