package database

import (
	"time"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/platform/paging"
)

// Option tunes one Paginate call.
type Option func(*pageConfig)

// pageConfig is what the options of a Paginate call set.
type pageConfig struct {
	count   CountStrategy
	cursors *paging.Cursors
	keyset  []string
	sort    []paging.SortKey
	cursor  string
	reads   bun.ConnResolver
	// countAge is how long a count travels with the cursors.
	countAge time.Duration
}

// DefaultCountMaxAge is how long a list's count travels with its cursors
// unless WithCountMaxAge says otherwise.
const DefaultCountMaxAge = time.Minute

// WithCount chooses how the total is counted. Without it, Paginate counts
// with CountAuto(DefaultCountBudget), which then remembers nothing between
// calls:
//
//	database.Paginate[Book](ctx, q, p, database.WithCount(database.CountCapped(1000)))
//
// An automatic or estimating strategy without a memory of its own (the
// zero value, CountEstimate) gets one here, held by the returned Option, so that options built once at
// start-up and reused on every request remember the queries that ran out
// of budget (see CountAuto).
func WithCount(s CountStrategy) Option {
	if (s.kind == countAuto || s.kind == countEstimate) && s.memo == nil {
		s.memo = newBudgetMemo()
	}
	return func(c *pageConfig) { c.count = s }
}

// WithCursors sets the signer of the cursors that WithKeyset hands out and
// reads. Keyset paging needs it.
func WithCursors(cursors *paging.Cursors) Option {
	return func(c *pageConfig) { c.cursors = cursors }
}

// WithKeyset pages by keyset: Paginate orders the query by the columns,
// ascending (the query must not be ordered already), answers a next_cursor
// holding the last row's values of them, and given that cursor (WithCursor)
// finds the next page with WHERE (columns) > (values) instead of an OFFSET.
// The columns must identify a row, so the last one is usually the primary
// key: ("id") or ("created_at", "id"). Their Go fields must be integers,
// floats, bools, strings or time.Time, and never NULL. WithSort orders by
// other keys first.
//
//	database.Paginate[Book](ctx, q, p, database.WithCursors(c), database.WithKeyset("id"), database.WithCursor(in.Cursor))
func WithKeyset(columns ...string) Option {
	return func(c *pageConfig) { c.keyset = columns }
}

// WithCursor continues a keyset list from the cursor a previous page
// answered as next_cursor; empty starts at the requested page. With a
// cursor, page and limit come from it, and one that is not valid, or that
// was issued for another query, is a *paging.FieldError naming paging.CursorParam.
func WithCursor(cursor string) Option {
	return func(c *pageConfig) { c.cursor = cursor }
}

// WithSort orders a keyset list by keys before the columns of WithKeyset,
// which then break ties in the direction of the last key (a key that is
// also a keyset column is not repeated): with WithKeyset("id"), the sort
// -created_at pages by (created_at DESC, id DESC). The cursor holds the
// last row's values of every key, and belongs to its sort: used with
// another, it is a *paging.FieldError naming paging.CursorParam. No keys keeps the
// keyset's own order. A key's column must not hold NULL; an index on
// (key, keyset columns) makes a deep page as cheap as the first.
//
//	database.Paginate[Book](ctx, q, p, database.WithCursors(c), database.WithKeyset("id"), database.WithSort(in.Sort...), database.WithCursor(in.Cursor))
func WithSort(keys ...paging.SortKey) Option {
	return func(c *pageConfig) { c.sort = keys }
}

// WithReads sends the count and the planner's estimate where the
// resolver sends the list's page, as reads; give it the *Replicas of
// OpenWithReplicas. Without it they run on the database's own pool, the
// primary's.
func WithReads(r bun.ConnResolver) Option {
	return func(c *pageConfig) { c.reads = r }
}

// WithCountMaxAge is how long a count travels with the cursors: a page
// reached by cursor answers the total its list's first page counted (with
// total_exact as it was) instead of counting again, unless that count is
// older than d. Zero or less counts on every page. Default:
// DefaultCountMaxAge.
func WithCountMaxAge(d time.Duration) Option {
	return func(c *pageConfig) { c.countAge = d }
}
