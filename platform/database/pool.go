package database

import (
	"database/sql"
	"fmt"
	"hash/maphash"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
	"github.com/jackc/pgx/v5/stdlib"
)

// Pool bounds what a PostgreSQL database may cost the service: how many
// connections it holds, how long connecting may take, and how long one
// statement may run on the server. SQLite ignores it (one connection).
type Pool struct {
	// MaxOpenConns caps the open connections, in use or idle.
	//
	// Optional. Default: 25
	MaxOpenConns int
	// MaxIdleConns caps the idle connections kept for reuse; it is never
	// more than MaxOpenConns.
	//
	// Optional. Default: MaxOpenConns
	MaxIdleConns int
	// ConnectTimeout bounds dialling and authenticating a new connection,
	// so a server that accepts but never answers cannot hold a request. A
	// connect_timeout in the DSN wins.
	//
	// Optional. Default: 5s
	ConnectTimeout time.Duration
	// StatementTimeout is the server's statement_timeout for every
	// connection: a statement running longer is cancelled by PostgreSQL
	// itself, even when the client is gone. A statement_timeout in the DSN
	// wins.
	//
	// Optional. Default: 0 (none)
	StatementTimeout time.Duration
}

// Defaults of the Pool.
const (
	DefaultMaxOpenConns   = 25
	DefaultConnectTimeout = 5 * time.Second
)

// poolDefault fills the zero fields of p with their defaults.
func poolDefault(p Pool) Pool {
	if p.MaxOpenConns <= 0 {
		p.MaxOpenConns = DefaultMaxOpenConns
	}
	if p.MaxIdleConns <= 0 {
		p.MaxIdleConns = p.MaxOpenConns
	}
	p.MaxIdleConns = min(p.MaxIdleConns, p.MaxOpenConns)
	if p.ConnectTimeout <= 0 {
		p.ConnectTimeout = DefaultConnectTimeout
	}
	return p
}

// cancelWait is how long a cancelled query's server has to answer the
// cancel request before its connection is dropped.
const cancelWait = 250 * time.Millisecond

// openPostgres opens the bounded pool of a PostgreSQL server, primary or
// replica, without connecting yet.
func openPostgres(dsn string, p Pool) (*sql.DB, error) {
	p = poolDefault(p)
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("open postgres %s: %w", redact(dsn), err)
	}
	if cfg.ConnectTimeout <= 0 {
		cfg.ConnectTimeout = p.ConnectTimeout
	}
	if _, set := cfg.RuntimeParams["statement_timeout"]; !set && p.StatementTimeout > 0 {
		cfg.RuntimeParams["statement_timeout"] = strconv.FormatInt(p.StatementTimeout.Milliseconds(), 10)
	}
	// A query whose context ends is cancelled on the server (a cancel
	// request), so the connection stays usable and the server stops
	// working for nobody: a count over its budget ends at once. A server
	// that does not answer the cancel within cancelWait loses the
	// connection, as without it (a frozen server, say).
	cfg.BuildContextWatcherHandler = func(c *pgconn.PgConn) ctxwatch.Handler {
		return &pgconn.CancelRequestContextWatcherHandler{Conn: c, DeadlineDelay: cancelWait}
	}
	var sqldb *sql.DB
	if cfg.DefaultQueryExecMode == pgx.QueryExecModeCacheStatement {
		sqldb = sql.OpenDB(preparing{Connector: stdlib.GetConnector(*cfg), seen: &seen{seed: maphash.MakeSeed()}})
	} else { // a mode the DSN asks for (default_query_exec_mode), as is
		sqldb = stdlib.OpenDB(*cfg)
	}
	sqldb.SetMaxOpenConns(p.MaxOpenConns)
	sqldb.SetMaxIdleConns(p.MaxIdleConns)
	sqldb.SetConnMaxIdleTime(5 * time.Minute)
	sqldb.SetConnMaxLifetime(time.Hour)
	return sqldb, nil
}
