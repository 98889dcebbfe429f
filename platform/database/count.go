package database

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/uptrace/bun"
)

// DefaultCountBudget is how long CountAuto lets an exact count run unless
// told otherwise.
const DefaultCountBudget = 25 * time.Millisecond

// countKind names a counting strategy.
type countKind int

const (
	countAuto countKind = iota
	countExact
	countEstimate
	countCapped
	countNone
)

// CountStrategy is how Paginate finds total_elements and max_page. Whatever
// the strategy, has_next is exact (Paginate fetches one row past the page),
// and no count runs when the page itself shows the total: a last page
// reached by offset, or an empty first page. The zero value is
// CountAuto(DefaultCountBudget).
type CountStrategy struct {
	kind   countKind
	cap    int
	budget time.Duration
	// budgetSet tells CountAuto(0) from the zero value.
	budgetSet bool
	// memo remembers the queries that ran out of budget; CountAuto makes
	// one, shared by every copy of the strategy it returns, and WithCount
	// gives the zero value one.
	memo *budgetMemo
}

var (
	// CountExact counts every row with count(*), however long it takes:
	// the strategy of the first version of this package.
	CountExact = CountStrategy{kind: countExact}
	// CountEstimate takes the planner's row estimate (EXPLAIN (FORMAT JSON)
	// on PostgreSQL) and never counts; SQLite keeps no such estimate, so
	// there it is the lower bound CountNone gives. Either way it is raised
	// to at least what the page shows, and total_exact is false.
	CountEstimate = CountStrategy{kind: countEstimate}
	// CountNone counts nothing: total_elements is the lower bound the page
	// shows (the rows up to and including it, plus one when another
	// follows), and total_exact is false.
	CountNone = CountStrategy{kind: countNone}
)

// CountCapped counts at most n+1 rows: an exact total up to n, and n+1 as a
// lower bound (total_exact false) beyond, so the cost is bounded by n.
func CountCapped(n int) CountStrategy {
	return CountStrategy{kind: countCapped, cap: max(n, 0)}
}

// CountAuto counts exactly within budget, one statement on a connection
// already taken from the pool, under a context deadline (PostgreSQL
// cancels it on the server; SQLite stops by itself), and falls back to
// CountEstimate when the budget runs out.
// Small tables and selective filters stay exact; huge ones stay fast. A
// query (its SQL, values included) that ran out of budget is remembered
// for a minute and estimated without trying again, so a table too large to
// count costs the budget once a minute, not on every request. The memory
// is the strategy's own, shared by its copies: make it once (a service
// does at start-up) and share it. The zero value has none until WithCount
// gives it one. A budget of zero or less never counts exactly.
func CountAuto(budget time.Duration) CountStrategy {
	return CountStrategy{kind: countAuto, budget: budget, budgetSet: true, memo: newBudgetMemo()}
}

// String names the strategy as its constructor does.
func (s CountStrategy) String() string {
	switch s.kind {
	case countExact:
		return "exact"
	case countEstimate:
		return "estimate"
	case countCapped:
		return "capped(" + strconv.Itoa(s.cap) + ")"
	case countNone:
		return "none"
	}
	return "auto(" + s.autoBudget().String() + ")"
}

// autoBudget is the budget of CountAuto, with the zero value's default.
func (s CountStrategy) autoBudget() time.Duration {
	if !s.budgetSet {
		return DefaultCountBudget
	}
	return s.budget
}

// known is what a fetched page tells of the total.
type known struct {
	// offset is the number of rows before the page; for a page found by
	// cursor it is only nominal (page * limit).
	offset int
	// fetched is the number of rows on the page.
	fetched int
	// hasNext is true when a row follows the page.
	hasNext bool
	// byCursor is true for a page found by keyset.
	byCursor bool
}

// lowerBound is the number of rows the page proves exist.
func (k known) lowerBound() int {
	n := k.offset + k.fetched
	if k.hasNext {
		n++
	}
	return n
}

// total returns the total when the page alone shows it: a last page found
// by offset, which has rows or is the first.
func (k known) total() (int, bool) {
	if k.byCursor || k.hasNext || (k.fetched == 0 && k.offset > 0) {
		return 0, false
	}
	return k.offset + k.fetched, true
}

// counter counts the rows of one list query: base, with its filters and no
// limit, offset or keyset condition.
type counter struct {
	db   *bun.DB
	base *bun.SelectQuery
	// reads, when set, routes the reads of db: the estimate goes where it
	// sends base, as the count and the page go.
	reads bun.ConnResolver
	// sql is base rendered, made on first use.
	sql string
}

// render returns the SQL of base.
func (c *counter) render() (string, error) {
	if c.sql == "" {
		sql, err := render(c.base, c.db.QueryGen())
		if err != nil {
			return "", fmt.Errorf("render the query: %w", err)
		}
		c.sql = sql
	}
	return c.sql, nil
}

// tally is what a count query found, before the page is known: n rows,
// exactly or as an estimate (0 when the strategy counts nothing).
type tally struct {
	n     int
	exact bool
	err   error
}

// total is the page's total from t: an estimate or a lower bound is raised
// to what the page shows.
func (t tally) total(k known) (int, bool) {
	if t.exact {
		return t.n, true
	}
	return max(t.n, k.lowerBound()), false
}

// tally counts with strategy s. It needs nothing of the page, so it may
// run beside the page's query.
func (c *counter) tally(ctx context.Context, s CountStrategy) tally {
	n, exact, err := c.query(ctx, s)
	return tally{n: n, exact: exact, err: err}
}

func (c *counter) query(ctx context.Context, s CountStrategy) (int, bool, error) {
	switch s.kind {
	case countNone:
		return 0, false, nil
	case countExact:
		n, err := c.base.Count(ctx)
		if err != nil {
			return 0, false, fmt.Errorf("count: %w", err)
		}
		return int(n), true, nil
	case countCapped:
		return c.capped(ctx, s.cap)
	case countEstimate:
		return c.estimate(ctx, s.memo)
	}
	return c.auto(ctx, s.autoBudget(), s.memo)
}

// capped counts at most n+1 rows.
func (c *counter) capped(ctx context.Context, n int) (int, bool, error) {
	var got int
	err := c.db.NewSelect().ColumnExpr("count(*)").
		TableExpr("(?) AS capped", c.base.Clone().Limit(int64(n)+1)).
		Scan(ctx, &got)
	if err != nil {
		return 0, false, fmt.Errorf("count at most %d: %w", n, err)
	}
	return got, got <= n, nil
}

// auto counts exactly within budget, or estimates; memo, when not nil,
// skips the queries that ran out of budget lately.
func (c *counter) auto(ctx context.Context, budget time.Duration, memo *budgetMemo) (int, bool, error) {
	if budget <= 0 {
		return c.estimate(ctx, memo)
	}
	sql, err := c.render()
	if err != nil {
		return 0, false, err
	}
	key := memoKey{db: c.db, sql: sql}
	if memo.recent(key, time.Now()) {
		return c.estimate(ctx, memo)
	}
	n, ok, err := c.within(ctx, budget)
	if err != nil {
		return 0, false, err
	}
	if ok {
		return n, true, nil
	}
	memo.add(key, time.Now())
	return c.estimate(ctx, memo)
}

// within counts exactly unless it takes longer than budget, which reports
// ok false, even when the count came back. The count is one statement,
// with no transaction of its own, on a connection taken from the pool
// before the budget starts, so that waiting for one under load does not
// count against it: on PostgreSQL the driver cancels the statement on the
// server when the budget ends, and SQLite stops at the context's end by
// itself.
func (c *counter) within(ctx context.Context, budget time.Duration) (n int, ok bool, err error) {
	conn := c.reader(ctx)
	var held *sql.Conn
	switch pool := conn.(type) {
	case *replicaConn:
		conn, held, err = pool.hold(ctx)
	case *sql.DB:
		held, err = pool.Conn(ctx)
		conn = held
	}
	if err != nil {
		return 0, false, fmt.Errorf("count: %w", err)
	}
	if held != nil {
		defer held.Close()
	}
	cctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	n, err = c.count(cctx, conn, held)
	switch {
	case errors.Is(cctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil:
		// Over budget, whether the statement was cancelled or came back
		// before the cancellation reached the server: a late count is not
		// used, so that the query is remembered as over budget and its
		// pages answer alike.
		c.discardCancelled(held)
		return 0, false, nil
	case err != nil:
		return 0, false, fmt.Errorf("count within %s: %w", budget, err)
	}
	return n, true, nil
}

// discardCancelled closes a PostgreSQL connection whose statement the
// budget cancelled instead of returning it to the pool. The cancel request
// reaches the server on a connection of its own and may land after the
// statement is over: on a connection back in the pool, it would cancel
// whatever statement of another request runs next there (a 57014 that
// request did not cause). A new connection costs less, and only once a
// minute per query over budget. SQLite keeps its connections: nothing is
// sent to cancel there.
func (c *counter) discardCancelled(held *sql.Conn) {
	if held == nil || DialectOfDB(c.db) != Postgres {
		return
	}
	// Raw returning driver.ErrBadConn makes database/sql close the
	// connection when it is released.
	_ = held.Raw(func(any) error { return driver.ErrBadConn })
}

// reader is the connection base's reads go to: the one the resolver of
// WithReads picks, else the database's pool.
func (c *counter) reader(ctx context.Context) bun.IConn {
	if c.reads != nil {
		if r := c.reads.ResolveConn(ctx, c.base); r != nil {
			return r
		}
	}
	return c.db.DB
}
