package migrations

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"

	"github.com/asapjs/fiber-template/platform/database"
)

// ErrLockTimeout is returned when another process held the migration lock
// for longer than the lock timeout.
var ErrLockTimeout = errors.New("timed out waiting for the migration lock")

// ErrLockHeld is returned by ClearStaleLock when another process is
// migrating right now, so the lock is not stale.
var ErrLockHeld = errors.New("another process holds the migration lock")

// advisoryKey is the key of the PostgreSQL advisory lock that serialises
// the migrations of one database: the bytes of "migrate_". Advisory locks
// are scoped to a database, so databases of one server never contend. Every
// version of the service must use the same key.
const advisoryKey int64 = 0x6d6967726174655f

// locksTable is the table of Bun's row lock, which SQLite uses and which
// older versions of the service used on PostgreSQL too.
const locksTable = "bun_migration_locks"

// locked runs fn holding the migration lock of m's database, with the
// migration tables (Bun's and namesTable) created inside the lock, so that
// processes starting at once neither race to create them nor apply a
// migration twice.
//
// On PostgreSQL the lock is a session-level advisory lock on a connection
// of its own: it dies with that connection, so a crashed process never
// leaves it behind, and a process that finds it taken waits for it (up to
// the lock timeout) instead of failing. SQLite, with one process, keeps
// Bun's lock row.
func locked(ctx context.Context, m *migrate.Migrator, o options, fn func(ctx context.Context) error) error {
	// Migrations read their own state and write the schema: never on a
	// read replica, whose copy may lag.
	ctx = database.OnPrimary(ctx)
	db := m.DB()
	inner := fn
	fn = func(ctx context.Context) error {
		if err := createNamesTable(ctx, db); err != nil {
			return err
		}
		return inner(ctx)
	}
	if database.DialectOfDB(db) != database.Postgres {
		return rowLocked(ctx, m, fn)
	}
	release, err := advisoryLock(ctx, db, o, true)
	if err != nil {
		return err
	}
	if err = m.Init(ctx); err != nil {
		err = fmt.Errorf("create migration tables: %w", err)
	} else {
		err = fn(ctx)
	}
	if rerr := release(); rerr != nil {
		err = errors.Join(err, fmt.Errorf("release migration lock: %w", rerr))
	}
	return err
}

// rowLocked is the single-process path: Bun's lock row, which a crash
// leaves behind (see ClearStaleLock).
func rowLocked(ctx context.Context, m *migrate.Migrator, fn func(ctx context.Context) error) error {
	if err := m.Init(ctx); err != nil {
		return fmt.Errorf("create migration tables: %w", err)
	}
	if err := m.Lock(ctx); err != nil {
		return fmt.Errorf("%w; if no other migration runs, a crashed one left the lock: clear it with \"migrate unlock\"", err)
	}
	err := fn(ctx)
	// The lock is released even when ctx is done, or it would outlive us.
	if uerr := m.Unlock(context.WithoutCancel(ctx)); uerr != nil {
		err = errors.Join(err, fmt.Errorf("release migration lock: %w", uerr))
	}
	return err
}

// advisoryLock takes the advisory lock on a connection of its own and
// returns the function that releases it and the connection. While another
// session holds it, advisoryLock waits up to o.lockTimeout when wait is
// set, and fails with ErrLockHeld at once otherwise.
func advisoryLock(ctx context.Context, db *bun.DB, o options, wait bool) (release func() error, err error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("migration lock: connect: %w", err)
	}
	if err := acquire(ctx, db, conn, o, wait); err != nil {
		// Discarded, not put back in the pool: a wait cut short by its
		// timeout sent PostgreSQL a cancel request, which could still
		// land on the next statement a reused connection runs.
		_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		_ = conn.Close()
		return nil, err
	}
	return func() error {
		// Released even when ctx is done; closing the connection alone
		// would only return it to the pool, still holding the lock.
		_, err := conn.ExecContext(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock(?)", advisoryKey)
		return errors.Join(err, conn.Close())
	}, nil
}

// acquire takes the advisory lock on conn, as advisoryLock describes.
func acquire(ctx context.Context, db *bun.DB, conn bun.Conn, o options, wait bool) error {
	var got bool
	if err := conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock(?)", advisoryKey).Scan(&got); err != nil {
		return fmt.Errorf("migration lock: %w", err)
	}
	switch {
	case got:
		return nil
	case !wait:
		return fmt.Errorf("%w (PostgreSQL backend %d)", ErrLockHeld, lockHolder(ctx, db))
	}
	o.logger.Info("another process is migrating the database: waiting for it",
		slog.Int64("holder_pid", lockHolder(ctx, db)), slog.Duration("timeout", o.lockTimeout))
	start := time.Now()
	waitCtx, cancel := context.WithTimeout(ctx, o.lockTimeout)
	defer cancel()
	if _, err := conn.ExecContext(waitCtx, "SELECT pg_advisory_lock(?)", advisoryKey); err != nil {
		if errors.Is(waitCtx.Err(), context.DeadlineExceeded) && ctx.Err() == nil {
			return fmt.Errorf("%w after %s: PostgreSQL backend %d still holds it (see pg_stat_activity); raise MIGRATE_LOCK_TIMEOUT if migrations take that long",
				ErrLockTimeout, o.lockTimeout, lockHolder(ctx, db))
		}
		return fmt.Errorf("migration lock: %w", err)
	}
	o.logger.Info("got the migration lock", slog.Duration("waited", time.Since(start).Round(time.Millisecond)))
	return nil
}

// lockHolder returns the backend pid holding the advisory lock in db's
// database, or 0 when none does or it cannot tell: it only enriches
// messages. pg_locks splits the 64-bit key into classid and objid.
func lockHolder(ctx context.Context, db *bun.DB) int64 {
	var pid int64
	err := db.NewRaw(`SELECT pid FROM pg_locks
		WHERE locktype = 'advisory' AND granted AND objsubid = 1
		AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
		AND classid = ? AND objid = ?`,
		advisoryKey>>32, advisoryKey&0xffffffff).Scan(ctx, &pid)
	if err != nil {
		return 0
	}
	return pid
}

// ClearStaleLock deletes Bun's lock row, which a crashed migration on
// SQLite (or on PostgreSQL, an older version of the service) leaves behind,
// and returns how many rows it deleted. On PostgreSQL it first takes the
// advisory lock without waiting, and refuses with ErrLockHeld while another
// process migrates. On SQLite it cannot tell: clear only when no other
// process migrates.
func ClearStaleLock(ctx context.Context, m *migrate.Migrator, opts ...Option) (int64, error) {
	o := newOptions(opts)
	ctx = database.OnPrimary(ctx)
	db := m.DB()
	release := func() error { return nil }
	if database.DialectOfDB(db) == database.Postgres {
		var err error
		if release, err = advisoryLock(ctx, db, o, false); err != nil {
			return 0, fmt.Errorf("migrate unlock: %w: it is migrating now, nothing is stale", err)
		}
	}
	n, err := deleteLockRows(ctx, m)
	if rerr := release(); rerr != nil {
		err = errors.Join(err, fmt.Errorf("release migration lock: %w", rerr))
	}
	if err != nil {
		return n, fmt.Errorf("migrate unlock: %w", err)
	}
	if n > 0 {
		o.logger.Warn("cleared a stale migration lock row left by a crashed migration", slog.Int64("rows", n))
	}
	return n, nil
}

// deleteLockRows deletes every row of Bun's lock table, creating the
// migration tables first so that a fresh database has one to look in.
func deleteLockRows(ctx context.Context, m *migrate.Migrator) (int64, error) {
	if err := m.Init(ctx); err != nil {
		return 0, fmt.Errorf("create migration tables: %w", err)
	}
	res, err := m.DB().NewDelete().TableExpr(locksTable).Where("1 = 1").Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("delete lock rows: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("delete lock rows: %w", err)
	}
	return n, nil
}
