package database

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// RateLimitTable is the table RateLimitCounters keeps its counters in:
// "key" VARCHAR(64) PRIMARY KEY, hits INTEGER, reset_at BIGINT (the end
// of the key's window in Unix milliseconds), indexed by reset_at. The
// service's migrations create it.
const RateLimitTable = "rate_limit_hits"

// hitQuery counts one hit in a single statement on PostgreSQL and SQLite
// (3.35 or later): a new key, or one whose window ended, starts a window
// with a count of 1; any other adds one. The SET expressions see the row
// as it was, so both CASEs test the old window. Concurrent hits on one
// key serialise on its row, so none is lost.
const hitQuery = `INSERT INTO rate_limit_hits ("key", hits, reset_at) VALUES (?, 1, ?)
ON CONFLICT ("key") DO UPDATE SET
	hits = CASE WHEN rate_limit_hits.reset_at <= ? THEN 1 ELSE rate_limit_hits.hits + 1 END,
	reset_at = CASE WHEN rate_limit_hits.reset_at <= ? THEN excluded.reset_at ELSE rate_limit_hits.reset_at END
RETURNING hits, reset_at`

// RateLimitCounters are fixed-window rate limit counters in the database,
// shared by every instance on it. It satisfies the Store of
// platform/ratelimit without importing it. Rows of ended windows stay
// until Sweep deletes them; call it every minute or so.
type RateLimitCounters struct {
	db bun.IDB
}

// NewRateLimitCounters returns the counters in db's RateLimitTable.
func NewRateLimitCounters(db bun.IDB) *RateLimitCounters {
	return &RateLimitCounters{db: db}
}

// Hit counts one hit of key at now in a window of the given length and
// returns the count of the key's window and when it ends (to the
// millisecond). Keys longer than 64 bytes do not fit the table. The
// statement runs with ctx, so the request's deadline bounds it.
func (c *RateLimitCounters) Hit(ctx context.Context, key string, window time.Duration, now time.Time) (int, time.Time, error) {
	nowMs := now.UnixMilli()
	var (
		hits  int
		reset int64
	)
	if err := c.db.NewRaw(hitQuery, key, now.Add(window).UnixMilli(), nowMs, nowMs).Scan(ctx, &hits, &reset); err != nil {
		return 0, time.Time{}, fmt.Errorf("database: count a rate limit hit: %w", err)
	}
	return hits, time.UnixMilli(reset), nil
}

// Sweep deletes the counters whose window ended by now and returns how
// many it deleted.
func (c *RateLimitCounters) Sweep(ctx context.Context, now time.Time) (int64, error) {
	return sweep(ctx, c.db, RateLimitTable, "reset_at", now)
}

// sweep deletes the rows of table whose column, a time in Unix
// milliseconds, is at or before now, and returns how many it deleted.
func sweep(ctx context.Context, db bun.IDB, table, column string, now time.Time) (int64, error) {
	res, err := db.NewDelete().TableExpr(table).Where("? <= ?", bun.Ident(column), now.UnixMilli()).Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("database: sweep %s: %w", table, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("database: sweep %s: %w", table, err)
	}
	return n, nil
}
