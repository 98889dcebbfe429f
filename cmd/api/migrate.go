package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/format"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"text/tabwriter"
	"text/template"
	"time"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/internal/migrationversion"
	"github.com/asapjs/fiber-template/migrations"
	"github.com/asapjs/fiber-template/platform/database"
)

// migrateUsage lists the migrate subcommands.
const migrateUsage = "want migrate up, down [--group], redo, status, unlock or new NAME"

// migrateOptions are the options of every migration run: the lock
// timeout, and the logger that reports waiting for another instance.
func migrateOptions(cfg config, logger *slog.Logger) []migrations.Option {
	return []migrations.Option{migrations.WithLockTimeout(cfg.MigrateLockTimeout), migrations.WithLogger(logger)}
}

// migrateOnStart applies the pending migrations before the service serves.
// Instances starting at once take turns: the first migrates, the others
// wait for its lock, then find nothing to do. On PostgreSQL they run on a
// pool of their own, without the serving pool's statement_timeout, as
// building an index may take longer than any request should; SQLite has
// no statement timeout and keeps the serving db (:memory: is one database
// per connection pool).
func migrateOnStart(ctx context.Context, db *bun.DB, cfg config, logger *slog.Logger) error {
	if database.DialectOfDB(db) == database.Postgres {
		own, err := database.Open(ctx, cfg.DatabaseURL)
		if err != nil {
			return fmt.Errorf("open database for migrations: %w", err)
		}
		defer own.Close()
		db = own
	}
	group, err := migrations.Migrate(ctx, migrations.NewMigrator(db), migrateOptions(cfg, logger)...)
	if err != nil {
		return err
	}
	if group.IsZero() {
		logger.Info("database schema is up to date")
		return nil
	}
	logger.Info("applied migrations", slog.String("group", group.String()))
	return nil
}

// migrate runs "migrate up|down [--group]|redo|status|unlock" against the
// configured database (the primary, never a replica), writing what it did
// to out.
func migrate(ctx context.Context, cfg config, logger *slog.Logger, args []string, out io.Writer) error {
	action, group, err := migrateAction(args)
	if err != nil {
		return err
	}
	db, err := database.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	m := migrations.NewMigrator(db)
	opts := migrateOptions(cfg, logger)

	switch action {
	case "up":
		group, err := migrations.Migrate(ctx, m, opts...)
		if err != nil {
			return err
		}
		if group.IsZero() {
			fmt.Fprintln(out, "nothing to migrate: the database schema is up to date")
			return nil
		}
		fmt.Fprintf(out, "migrated to %s\n", group)
	case "down":
		if group {
			// The last group: the migrations one migrate up (or one
			// start) applied.
			group, err := migrations.Rollback(ctx, m, opts...)
			if err != nil {
				return err
			}
			if group.IsZero() {
				fmt.Fprintln(out, "nothing to roll back")
				return nil
			}
			fmt.Fprintf(out, "rolled back %s\n", group)
			return nil
		}
		last, err := migrations.RollbackLast(ctx, m, opts...)
		if err != nil {
			return err
		}
		if last == nil {
			fmt.Fprintln(out, "nothing to roll back")
			return nil
		}
		fmt.Fprintf(out, "rolled back %s (of group #%d)\n", last, last.GroupID)
	case "redo":
		last, err := migrations.Redo(ctx, m, opts...)
		if err != nil {
			return err
		}
		if last == nil {
			fmt.Fprintln(out, "nothing to redo: no migration is applied")
			return nil
		}
		fmt.Fprintf(out, "rolled back and applied again %s (group #%d)\n", last, last.GroupID)
	case "status":
		ms, err := migrations.Status(ctx, m, opts...)
		if err != nil {
			return err
		}
		w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(w, "MIGRATION\tSTATUS\tGROUP\tAPPLIED AT")
		for _, mig := range ms {
			if !mig.IsApplied() {
				fmt.Fprintf(w, "%s\tpending\t\t\n", mig)
				continue
			}
			fmt.Fprintf(w, "%s\tapplied\t%d\t%s\n", mig, mig.GroupID, mig.MigratedAt.UTC().Format(time.RFC3339))
		}
		return w.Flush()
	case "unlock":
		// PostgreSQL migrations hold an advisory lock that ends with their
		// connection; only SQLite, or an older version, leaves a lock row.
		n, err := migrations.ClearStaleLock(ctx, m, opts...)
		if err != nil {
			return err
		}
		if n == 0 {
			fmt.Fprintln(out, "no stale migration lock: nothing to clear")
			return nil
		}
		fmt.Fprintf(out, "warning: cleared %d stale migration lock row(s) left by a crashed migration\n", n)
	}
	return nil
}

// migrateAction reads the action of migrate and, for down, whether
// --group asks for the last group instead of the last migration.
func migrateAction(args []string) (action string, group bool, err error) {
	if len(args) == 0 {
		return "", false, fmt.Errorf("migrate: %s", migrateUsage)
	}
	action, rest := args[0], args[1:]
	switch action {
	case "up", "redo", "status", "unlock":
	case "down":
		if len(rest) == 1 && (rest[0] == "--group" || rest[0] == "-group") {
			return action, true, nil
		}
	default:
		return "", false, fmt.Errorf("migrate: unknown action %q (%s)", action, migrateUsage)
	}
	if len(rest) > 0 {
		return "", false, fmt.Errorf("migrate %s: unexpected %q (%s)", action, rest, migrateUsage)
	}
	return action, false, nil
}

// migrationsDir is where migrate new writes, relative to the working
// directory: the repository root, where go run ./cmd/api runs.
const migrationsDir = "migrations"

// migrationName is the NAME of migrate new: snake_case, which Bun accepts
// in a migration's file name.
var migrationName = regexp.MustCompile(`^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$`)

// migrationSkeleton is the file migrate new writes: a migration in the
// shape of the others of the package, whose functions fail until they are
// written. A skeleton that did nothing would be applied and marked as
// applied at the next start, and its body, written later, would never run.
var migrationSkeleton = template.Must(template.New("migration").Parse(`package migrations

import (
	"context"
	"errors"

	"github.com/uptrace/bun"
)

// Say here what {{.Name}} changes, and why. Write it for PostgreSQL and
// SQLite alike, as the other files of this package do; a table it creates
// is a copy of the model as it is today (such as usersV1), so that later
// changes to the model cannot rewrite history.
func init() {
	Migrations.MustRegister(func(ctx context.Context, db *bun.DB) error {
		return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			// The change, with tx.NewCreateTable, tx.NewCreateIndex or
			// tx.ExecContext, each error wrapped with what failed:
			//
			//	if _, err := tx.ExecContext(ctx, "CREATE INDEX IF NOT EXISTS ..."); err != nil {
			//		return fmt.Errorf("create index ...: %w", err)
			//	}
			return errors.New("migration {{.Version}}_{{.Name}} is not written yet: write its up function in {{.File}}")
		})
	}, func(ctx context.Context, db *bun.DB) error {
		return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			// Undo what the up function does.
			return errors.New("migration {{.Version}}_{{.Name}} is not written yet: write its down function in {{.File}}")
		})
	})
}
`))

// migrateNew runs "migrate new NAME": it writes the skeleton of a new
// migration into dir, versioned by now, and names the file on out.
func migrateNew(args []string, dir string, now time.Time, out io.Writer) error {
	if len(args) != 1 {
		return fmt.Errorf("migrate new: want one NAME, such as add_orders_index, got %q", args)
	}
	name := args[0]
	if !migrationName.MatchString(name) {
		return fmt.Errorf("migrate new: NAME must be snake_case: lower-case letters and digits, words joined by single underscores, starting with a letter (such as add_orders_index), got %q", name)
	}
	path, err := writeMigration(dir, name, now)
	if err != nil {
		return fmt.Errorf("migrate new: %w", err)
	}
	_, err = fmt.Fprintf(out, "wrote %s and its line in %s: write its up and down functions; until then applying it fails\n",
		filepath.ToSlash(path), filepath.ToSlash(filepath.Join(dir, migrationversion.LedgerFile)))
	return err
}

// writeMigration writes the skeleton of migration name into dir, and its
// line into dir's ledger of versions, and returns its path. Its version is
// past every migration there and every version the ledger says was
// issued (see migrationversion). It never overwrites a file.
func writeMigration(dir, name string, now time.Time) (string, error) {
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("no %s directory here: run it from the repository root", filepath.ToSlash(dir))
	}
	version, err := migrationversion.NextIn(dir, now)
	if err != nil {
		return "", err
	}
	mig := migrationversion.Migration{Version: version, Name: name}
	ledger, ledgerData, err := migrationversion.WithEntry(dir, mig)
	if err != nil {
		return "", err
	}
	file := mig.File()
	var src bytes.Buffer
	if err := migrationSkeleton.Execute(&src, struct{ Version, Name, File string }{version, name, file}); err != nil {
		return "", fmt.Errorf("render %s: %w", file, err)
	}
	formatted, err := format.Source(src.Bytes())
	if err != nil {
		return "", fmt.Errorf("format %s: %w", file, err)
	}
	path := filepath.Join(dir, file)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return "", fmt.Errorf("%s exists: not overwriting it", filepath.ToSlash(path))
	}
	if err != nil {
		return "", fmt.Errorf("create %s: %w", file, err)
	}
	_, err = f.Write(formatted)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.WriteFile(ledger, ledgerData, 0o644)
	}
	if err != nil {
		_ = os.Remove(path)
		return "", fmt.Errorf("write %s: %w", file, err)
	}
	return path, nil
}
