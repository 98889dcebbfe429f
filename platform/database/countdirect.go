package database

import (
	"context"
	"database/sql"
	"time"

	"github.com/uptrace/bun"
	"go.opentelemetry.io/otel/trace"
)

// count runs the exact count of base on conn. On PostgreSQL, where held is
// a connection of the pool and base a read Bun would send to that pool
// (bunPoolRead), the statement Bun would write goes through pgx on held,
// as readDirect reads a page: one int8 from the wire, without Bun
// building the statement again around base, database/sql's driver.Value
// or Bun's scan between. Anything else counts through Bun, as before.
func (c *counter) count(ctx context.Context, conn bun.IConn, held *sql.Conn) (int, error) {
	if held != nil && DialectOfDB(c.db) == Postgres {
		if pool, traced := bunPoolRead(c.db, c.base); pool {
			base, err := c.render()
			if err != nil {
				return 0, err
			}
			start := time.Now()
			n, ok, err := countDirect(ctx, held, countOf(base))
			if ok {
				if traced {
					c.traceCount(ctx, start, err)
				}
				return n, err
			}
		}
	}
	var n int
	err := c.db.NewSelect().Conn(conn).ColumnExpr("count(*)").TableExpr("(?) AS counted", c.base).Scan(ctx, &n)
	return n, err
}

// countOf is the statement that counts the rows of the select base, as
// Bun writes it for the counter.
func countOf(base string) string { return "SELECT count(*) FROM (" + base + ") AS counted" }

// countDirect runs statement, which reads one integer, on held through
// pgx. ok is false, with nothing run, when held is not a pgx connection of
// this package's pool.
func countDirect(ctx context.Context, held *sql.Conn, statement string) (n int, ok bool, err error) {
	err = held.Raw(func(dc any) error {
		pc, mode := pgxOf(dc, statement)
		if pc == nil {
			return nil
		}
		ok = true
		return pc.QueryRow(ctx, statement, mode...).Scan(&n)
	})
	return n, ok, err
}

// traceCount records a count made through pgx as Trace's hook records
// Bun's: a SELECT span with the statement without its values, one row.
func (c *counter) traceCount(ctx context.Context, start time.Time, err error) {
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return
	}
	traceRead(ctx, "SELECT", "", countOf(template(c.base)), start, 1, err)
}
