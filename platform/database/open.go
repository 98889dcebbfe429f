package database

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/dialect/sqlitedialect"
	"github.com/uptrace/bun/driver/sqliteshim"
)

// DefaultSQLitePath is the database file used when the DSN is empty.
const DefaultSQLitePath = "./data/app.db"

// Dialect names the database a DSN points at.
type Dialect string

// Supported dialects.
const (
	Postgres Dialect = "postgres"
	SQLite   Dialect = "sqlite"
)

// DialectOf returns the dialect of a DSN: postgres:// and postgresql:// are
// PostgreSQL; sqlite:, file: or an empty DSN are SQLite.
func DialectOf(dsn string) (Dialect, error) {
	switch {
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		return Postgres, nil
	case dsn == "", strings.HasPrefix(dsn, "sqlite:"), strings.HasPrefix(dsn, "file:"):
		return SQLite, nil
	}
	return "", fmt.Errorf("database: DSN %q has an unsupported scheme (want postgres, postgresql, sqlite or file)", redact(dsn))
}

// Open opens and pings the database a DSN names. SQLite gets one connection
// (one writer), WAL, a busy timeout and foreign keys; PostgreSQL a bounded
// pool with the Pool defaults. The same Bun model code runs on both.
func Open(ctx context.Context, dsn string) (*bun.DB, error) {
	return OpenPool(ctx, dsn, Pool{})
}

// OpenPool is Open with the PostgreSQL pool bounded by p.
func OpenPool(ctx context.Context, dsn string, p Pool) (*bun.DB, error) {
	dialect, err := DialectOf(dsn)
	if err != nil {
		return nil, err
	}
	var db *bun.DB
	switch dialect {
	case Postgres:
		sqldb, err := openPostgres(dsn, p)
		if err != nil {
			return nil, err
		}
		db = bun.NewDB(sqldb, pgdialect.New())
	case SQLite:
		source, err := sqliteSource(dsn)
		if err != nil {
			return nil, err
		}
		sqldb, err := sql.Open(sqliteshim.ShimName, source)
		if err != nil {
			return nil, fmt.Errorf("open sqlite: %w", err)
		}
		// SQLite has one writer; one connection serialises writes instead
		// of failing them with SQLITE_BUSY, and keeps :memory: one database.
		sqldb.SetMaxOpenConns(1)
		sqldb.SetMaxIdleConns(1)
		sqldb.SetConnMaxLifetime(0)
		sqldb.SetConnMaxIdleTime(0)
		db = bun.NewDB(sqldb, sqlitedialect.New())
	}
	if err := db.PingContext(ctx); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("ping %s database: %w", dialect, err)
	}
	return db, nil
}

// sqliteSource turns a sqlite:/file: DSN into the driver's source with the
// pragmas the service relies on, creating the file's directory.
func sqliteSource(dsn string) (string, error) {
	path := strings.TrimPrefix(strings.TrimPrefix(dsn, "sqlite:"), "file:")
	path = strings.TrimPrefix(path, "//")
	if path == "" {
		path = DefaultSQLitePath
	}
	path, query, _ := strings.Cut(path, "?")
	values, err := url.ParseQuery(query)
	if err != nil {
		return "", fmt.Errorf("sqlite DSN parameters: %w", err)
	}
	memory := path == ":memory:" || values.Get("mode") == "memory"
	if !memory {
		if dir := filepath.Dir(path); dir != "." {
			if err := os.MkdirAll(dir, 0o750); err != nil {
				return "", fmt.Errorf("create sqlite directory %s: %w", dir, err)
			}
		}
	}
	pragmas := []string{"busy_timeout(5000)", "foreign_keys(1)"}
	if !memory {
		// FULL, not NORMAL: in WAL mode FULL syncs the WAL at every
		// commit, so a write that was acknowledged survives a power loss.
		pragmas = append(pragmas, "journal_mode(WAL)", "synchronous(FULL)")
	}
	for _, p := range pragmas {
		values.Add("_pragma", p)
	}
	return "file:" + path + "?" + values.Encode(), nil
}

// redact hides the password of a DSN.
func redact(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil || u.User == nil {
		return dsn
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.String()
}

// DialectOfDB returns the dialect of an open database.
func DialectOfDB(db *bun.DB) Dialect {
	if db.Dialect().Name().String() == "pg" {
		return Postgres
	}
	return SQLite
}
