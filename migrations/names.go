package migrations

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"

	"github.com/asapjs/fiber-template/platform/database"
)

// namesTable records the name each applied migration had when it ran, by
// version. Bun records an applied migration by its version alone, so a
// new migration given the version of one a database applied (a file
// renamed, or copied from another branch) would pass there for applied and
// never run: with the names, Migrate and the rollbacks refuse instead.
const namesTable = "migration_names"

// createNamesTable creates namesTable when it is missing. Callers hold the
// migration lock.
func createNamesTable(ctx context.Context, db bun.IDB) error {
	if _, err := db.NewRaw("CREATE TABLE IF NOT EXISTS " + namesTable +
		" (version VARCHAR(14) PRIMARY KEY, name TEXT NOT NULL)").Exec(ctx); err != nil {
		return fmt.Errorf("create %s: %w", namesTable, err)
	}
	return nil
}

// appliedName is a row of namesTable.
type appliedName struct {
	Version string `bun:"version"`
	Name    string `bun:"name"`
}

// appliedNames returns the names of namesTable by version.
func appliedNames(ctx context.Context, db bun.IDB) (map[string]string, error) {
	var rows []appliedName
	if err := db.NewSelect().TableExpr(namesTable).Column("version", "name").Scan(ctx, &rows); err != nil {
		return nil, fmt.Errorf("read %s: %w", namesTable, err)
	}
	names := make(map[string]string, len(rows))
	for _, r := range rows {
		names[r.Version] = r.Name
	}
	return names, nil
}

// ErrRenamed is the error of a migration applied under another name than
// the one its version has now.
var ErrRenamed = errors.New("a migration's version was applied under another name")

// checkNames refuses, with ErrRenamed and what to do, when an applied
// version's migration has another name now than when it ran.
func checkNames(ctx context.Context, m *migrate.Migrator) error {
	names, err := appliedNames(ctx, m.DB())
	if err != nil {
		return err
	}
	ms, err := m.MigrationsWithStatus(ctx)
	if err != nil {
		return fmt.Errorf("read migrations: %w", err)
	}
	var conflicts []string
	for _, mig := range ms {
		if was, ok := names[mig.Name]; ok && mig.IsApplied() && was != mig.Comment {
			conflicts = append(conflicts, fmt.Sprintf("migration %s was applied to this database as %s, but the migration with that version is now %s (migrations/%s): "+
				"this database would take %s for applied and never run it. If %s is a migration of its own, give it a version of its own: rename its file "+
				"past the newest version in migrations/versions.txt and add its line there (or move its code into the file go run ./cmd/api migrate new %s writes, "+
				"and delete this one); if it is %s renamed, name its file %s_%s.go again",
				mig.Name, was, mig.Comment, mig.String()+".go", mig.Comment, mig.Comment, mig.Comment, was, mig.Name, was))
		}
	}
	if len(conflicts) > 0 {
		return fmt.Errorf("%w: %s", ErrRenamed, strings.Join(conflicts, "; "))
	}
	return nil
}

// CheckNames refuses, as Migrate does, a database that applied a version
// under another name than its migration has now. It takes no lock, for a
// readiness probe; a database without namesTable has nothing to refuse.
func CheckNames(ctx context.Context, m *migrate.Migrator) error {
	var n int
	q := m.DB().NewSelect().TableExpr("information_schema.tables").ColumnExpr("count(*)").
		Where("table_schema = current_schema() AND table_name = ?", namesTable)
	if database.DialectOfDB(m.DB()) != database.Postgres {
		q = m.DB().NewSelect().TableExpr("sqlite_master").ColumnExpr("count(*)").
			Where("type = 'table' AND name = ?", namesTable)
	}
	if err := q.Scan(ctx, &n); err != nil {
		return fmt.Errorf("look for %s: %w", namesTable, err)
	}
	if n == 0 {
		return nil
	}
	return checkNames(ctx, m)
}

// recordNames makes namesTable hold the name of every migration db has
// applied now, and no more: the names of those it applied since the last
// call are added (and every applied one's, the first time, on a database
// older than the table), those of the rolled-back ones deleted. An applied
// version whose file is gone keeps its name, so a new file of that version
// is still refused.
func recordNames(ctx context.Context, m *migrate.Migrator) error {
	db := m.DB()
	if _, err := db.NewDelete().TableExpr(namesTable).
		Where("version NOT IN (SELECT name FROM bun_migrations)").Exec(ctx); err != nil {
		return fmt.Errorf("forget the names of rolled-back migrations: %w", err)
	}
	names, err := appliedNames(ctx, db)
	if err != nil {
		return err
	}
	ms, err := m.MigrationsWithStatus(ctx)
	if err != nil {
		return fmt.Errorf("read migrations: %w", err)
	}
	var rows []appliedName
	for _, mig := range ms {
		if _, ok := names[mig.Name]; mig.IsApplied() && !ok {
			rows = append(rows, appliedName{Version: mig.Name, Name: mig.Comment})
		}
	}
	if len(rows) == 0 {
		return nil
	}
	if _, err := db.NewInsert().Model(&rows).ModelTableExpr(namesTable).Exec(ctx); err != nil {
		return fmt.Errorf("record the names of applied migrations: %w", err)
	}
	return nil
}
