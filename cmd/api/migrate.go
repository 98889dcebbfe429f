package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"text/tabwriter"
	"time"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/migrations"
	"github.com/asapjs/fiber-template/platform/database"
)

// migrateUsage lists the migrate subcommands.
const migrateUsage = "want migrate up, down, status or unlock"

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

// migrate runs "migrate up|down|status|unlock" against the configured
// database (the primary, never a replica), writing what it did to out.
func migrate(ctx context.Context, cfg config, logger *slog.Logger, args []string, out io.Writer) error {
	if len(args) != 1 {
		return fmt.Errorf("migrate: %s", migrateUsage)
	}
	action := args[0]
	switch action {
	case "up", "down", "status", "unlock":
	default:
		return fmt.Errorf("migrate: unknown action %q (%s)", action, migrateUsage)
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
		group, err := migrations.Rollback(ctx, m, opts...)
		if err != nil {
			return err
		}
		if group.IsZero() {
			fmt.Fprintln(out, "nothing to roll back")
			return nil
		}
		fmt.Fprintf(out, "rolled back %s\n", group)
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
