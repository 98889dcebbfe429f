package database

import "github.com/asapjs/fiber-template/platform/paging"

// Option tunes one Paginate call.
type Option func(*pageConfig)

// pageConfig is what the options of a Paginate call set.
type pageConfig struct {
	count   CountStrategy
	cursors *paging.Cursors
	keyset  []string
	cursor  string
}

// WithCount chooses how the total is counted. Without it, Paginate counts
// with CountAuto(DefaultCountBudget), which then remembers nothing between
// calls:
//
//	database.Paginate[Book](ctx, q, p, database.WithCount(database.CountCapped(1000)))
//
// An automatic strategy without a memory of its own (the zero value) gets
// one here, held by the returned Option, so that options built once at
// start-up and reused on every request remember the queries that ran out
// of budget (see CountAuto).
func WithCount(s CountStrategy) Option {
	if s.kind == countAuto && s.memo == nil {
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
// floats, bools, strings or time.Time.
//
//	database.Paginate[Book](ctx, q, p, database.WithCursors(c), database.WithKeyset("id"), database.WithCursor(in.Cursor))
func WithKeyset(columns ...string) Option {
	return func(c *pageConfig) { c.keyset = columns }
}

// WithCursor continues a keyset list from the cursor a previous page
// answered as next_cursor; empty starts at the requested page. With a
// cursor, page and limit come from it, and one that is not valid, or that
// was issued for another query, is a *paging.FieldError naming "cursor".
func WithCursor(cursor string) Option {
	return func(c *pageConfig) { c.cursor = cursor }
}
