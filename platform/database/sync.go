package database

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/schema"
)

// syncTables creates, in one transaction, the tables of models that the catalog
// does not list, with their foreign keys, and then the missing indexes of
// every model. It never drops or alters anything, so a table whose model
// changed keeps its old columns: that is what migrations are for.
func syncTables(ctx context.Context, db *bun.DB, models []model) (SyncReport, error) {
	report := SyncReport{Created: []string{}, Existing: []string{}, CreatedIndexes: []string{}}
	dialect := DialectOfDB(db)
	err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		for _, m := range creationOrder(models) {
			t := m.table
			exists, err := tableExists(ctx, tx, dialect, t.Name)
			if err != nil {
				return err
			}
			if exists {
				report.Existing = append(report.Existing, t.Name)
				continue
			}
			if _, err := tx.NewCreateTable().Model(t.ZeroIface).IfNotExists().WithForeignKeys().Exec(ctx); err != nil {
				return fmt.Errorf("create table %s: %w", t.Name, err)
			}
			report.Created = append(report.Created, t.Name)
		}
		for _, m := range models {
			for _, ix := range m.indexes {
				exists, err := indexExists(ctx, tx, dialect, m.table.Name, ix.Name)
				if err != nil {
					return err
				}
				if exists {
					continue
				}
				created, err := createIndex(ctx, tx, dialect, m.table, ix)
				if err != nil {
					return err
				}
				if created {
					report.CreatedIndexes = append(report.CreatedIndexes, ix.Name)
				}
			}
		}
		return nil
	})
	if err != nil {
		return SyncReport{}, fmt.Errorf("database: sync: %w", err)
	}
	return report, nil
}

// createIndex creates one index of table, or skips it when it is
// PostgreSQL's alone and the database is not, or when it needs an extension
// that cannot be created (logged). It reports whether it created the index.
func createIndex(ctx context.Context, tx bun.Tx, dialect Dialect, table *schema.Table, ix Index) (bool, error) {
	if ix.PostgresOnly() && dialect != Postgres {
		return false, nil
	}
	if ix.Extension != "" {
		ok, err := CreateExtension(ctx, tx, ix.Extension)
		if err != nil {
			return false, err
		}
		if !ok {
			slog.WarnContext(ctx, "database: extension unavailable, index skipped",
				slog.String("extension", ix.Extension), slog.String("index", ix.Name))
			return false, nil
		}
	}
	q := tx.NewCreateIndex().Model(table.ZeroIface).Index(ix.Name).IfNotExists()
	if ix.Using != "" {
		q = q.Using(ix.Using)
	}
	opClass := ""
	if ix.OpClass != "" {
		opClass = " " + ix.OpClass
	}
	if ix.Expression != "" {
		q = q.ColumnExpr("(" + ix.Expression + ")" + opClass)
	}
	for _, c := range ix.Columns {
		q = q.ColumnExpr("?"+opClass, bun.Ident(c))
	}
	if ix.Unique {
		q = q.Unique()
	}
	if _, err := q.Exec(ctx); err != nil {
		return false, fmt.Errorf("create index %s: %w", ix.Name, err)
	}
	return true, nil
}

// CreateExtension creates a PostgreSQL extension in tx unless it exists, in
// a savepoint so that a refusal leaves the transaction usable. It reports
// false when the database refuses (the extension is not installed, or the
// user may not create it): the caller decides whether to go on without.
func CreateExtension(ctx context.Context, tx bun.Tx, name string) (bool, error) {
	if _, err := tx.ExecContext(ctx, "SAVEPOINT create_extension"); err != nil {
		return false, fmt.Errorf("create extension %s: %w", name, err)
	}
	if _, err := tx.ExecContext(ctx, "CREATE EXTENSION IF NOT EXISTS ?", bun.Ident(name)); err != nil {
		if _, rerr := tx.ExecContext(ctx, "ROLLBACK TO SAVEPOINT create_extension"); rerr != nil {
			return false, fmt.Errorf("create extension %s: %w", name, rerr)
		}
		return false, nil
	}
	if _, err := tx.ExecContext(ctx, "RELEASE SAVEPOINT create_extension"); err != nil {
		return false, fmt.Errorf("create extension %s: %w", name, err)
	}
	return true, nil
}

// creationOrder orders the models so that a table comes after the tables
// its foreign keys reference, keeping the listed order otherwise. Models in
// a reference cycle keep their listed order.
func creationOrder(models []model) []model {
	index := make(map[*schema.Table]int, len(models))
	for i, m := range models {
		index[m.table] = i
	}
	deps := make([][]int, len(models))
	for i, m := range models {
		for _, rel := range m.table.Relations {
			if j, ok := index[rel.JoinTable]; ok && j != i && rel.References() {
				deps[i] = append(deps[i], j)
			}
		}
	}
	out := make([]model, 0, len(models))
	done := make([]bool, len(models))
	for len(out) < len(models) {
		progressed := false
		for i := range models {
			if done[i] || !allDone(deps[i], done) {
				continue
			}
			done[i], progressed = true, true
			out = append(out, models[i])
			break
		}
		if progressed {
			continue
		}
		for i := range models { // a cycle: take the first model left
			if !done[i] {
				done[i] = true
				out = append(out, models[i])
				break
			}
		}
	}
	return out
}

func allDone(deps []int, done []bool) bool {
	for _, j := range deps {
		if !done[j] {
			return false
		}
	}
	return true
}

// tableExists asks the catalog whether the table exists: PostgreSQL's
// information_schema in the table's schema or the current one, SQLite's
// sqlite_master.
func tableExists(ctx context.Context, db bun.IDB, dialect Dialect, name string) (bool, error) {
	schemaName, table := splitName(name)
	var q *bun.RawQuery
	if dialect == Postgres {
		q = db.NewRaw(`SELECT EXISTS (SELECT 1 FROM information_schema.tables
			WHERE table_schema = COALESCE(?, current_schema()) AND table_name = ?)`, nullString(schemaName), table)
	} else {
		q = db.NewRaw(`SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?)`, table)
	}
	var exists bool
	if err := q.Scan(ctx, &exists); err != nil {
		return false, fmt.Errorf("look up table %s: %w", name, err)
	}
	return exists, nil
}

// indexExists asks the catalog whether an index exists in the schema of
// table.
func indexExists(ctx context.Context, db bun.IDB, dialect Dialect, table, index string) (bool, error) {
	schemaName, _ := splitName(table)
	var q *bun.RawQuery
	if dialect == Postgres {
		q = db.NewRaw(`SELECT EXISTS (SELECT 1 FROM pg_indexes
			WHERE schemaname = COALESCE(?, current_schema()) AND indexname = ?)`, nullString(schemaName), index)
	} else {
		q = db.NewRaw(`SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?)`, index)
	}
	var exists bool
	if err := q.Scan(ctx, &exists); err != nil {
		return false, fmt.Errorf("look up index %s: %w", index, err)
	}
	return exists, nil
}

// nullString is NULL for "", so COALESCE falls back to the current schema.
func nullString(s string) sql.NullString {
	return sql.NullString{String: s, Valid: s != ""}
}
