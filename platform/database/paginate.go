package database

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"time"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/platform/paging"
)

// Paginate returns one page of q, scanned into a slice of T, in the paging
// envelope. It fetches p.Limit+1 rows, so has_next is always exact, and
// counts the rows q selects with the strategy of WithCount (CountAuto with
// DefaultCountBudget by default) only when the page does not show the total
// by itself.
//
// Without WithKeyset the page is found by OFFSET p.Limit*p.Page, and q
// should be ordered by a unique key so that pages partition the result:
//
//	database.Paginate[Book](ctx, db.NewSelect().Order("id"), c.Paging())
//
// With WithKeyset, Paginate orders q by the keyset columns itself and
// answers a signed next_cursor; with WithCursor it finds the page after the
// cursor's by key, with no OFFSET, and takes page and limit from the
// cursor. A cursor that is not valid, or that was issued for another query
// (other filters), is one of the cursor errors of package paging, which the
// router answers with a 400.
//
// On PostgreSQL the page's rows are read through pgx, on a connection of
// the database's pool, each column decoded into the field its bun tag
// names, with no database/sql driver.Value between: the same rows as
// Bun's, in about a third of the allocations; its exact count, when it
// counts, is read through pgx too, on the connection it holds for it. A
// read goes through Bun instead on a database with read replicas or with
// a query hook other than Trace's, for a query made on a transaction or a
// connection of its own, and for a model with a scan hook or a field Bun
// reads its own way (json, arrays, a sql.Scanner, uint64).
func Paginate[T any](ctx context.Context, q *bun.SelectQuery, p paging.Paging, opts ...Option) (paging.Page[T], error) {
	cfg := pageConfig{countAge: DefaultCountMaxAge}
	for _, o := range opts {
		o(&cfg)
	}
	items := make([]T, 0, p.Limit+1)
	// The count runs on a copy with the filters alone, made by keepBase
	// before the page query gets the order, the keyset condition, the limit
	// and the offset; until then the two are one query.
	page := q.Model(&items)
	pg := &pagination{cfg: cfg, p: p, page: page, c: &counter{db: q.DB(), base: page, reads: cfg.reads}}
	switch {
	case len(cfg.keyset) > 0:
		ks, digest, err := prepareKeyset[T](pg.c, cfg)
		if err != nil {
			return paging.Page[T]{}, err
		}
		if err := pg.seek(ks, digest); err != nil {
			return paging.Page[T]{}, err
		}
	case cfg.cursor != "":
		return paging.Page[T]{}, paging.ErrCursorUnsupported
	case len(cfg.sort) > 0:
		return paging.Page[T]{}, errors.New("paginate: WithSort needs WithKeyset")
	}
	direct := func(ctx context.Context) (bool, error) { return readDirect(ctx, pg.c.db, pg.page, &items, pg.params) }
	if err := pg.scan(ctx, direct); err != nil {
		return paging.Page[T]{}, err
	}
	if len(items) == 0 {
		if err := pg.checkRow(ctx); err != nil {
			return paging.Page[T]{}, err
		}
	}
	hasNext := len(items) > pg.p.Limit
	if hasNext {
		items = items[:pg.p.Limit]
	}
	res, err := pg.result(ctx, len(items), hasNext)
	if err != nil {
		return paging.Page[T]{}, err
	}
	if pg.ks != nil && hasNext {
		if res.NextCursor, err = pg.next(reflect.ValueOf(&items[len(items)-1]).Elem(), res); err != nil {
			return paging.Page[T]{}, fmt.Errorf("paginate: %w", err)
		}
	}
	return paging.Of(items, pg.p, res), nil
}

// pagination is one Paginate call on its way: the page query as it is
// built, its count, and what a cursor brought.
type pagination struct {
	cfg  pageConfig
	p    paging.Paging
	page *bun.SelectQuery
	c    *counter
	// ks orders a keyset list, digest names its filters; nil and "" for a
	// list by offset.
	ks     *keyset
	digest string
	// byCursor reports a page found after a cursor's position; carried is
	// the count the cursor brought, still fresh; rowKey is the row a
	// cursor of Position.Row continues after.
	byCursor bool
	carried  *paging.Count
	rowKey   []any
	// params are the cursor's values in the page query, which a direct
	// read sends as parameters; nil when the page has none.
	params *params
	// pending receives the count running beside the page; nil when none.
	pending chan tally
}

// seek orders the page by the keyset ks and, with a cursor, starts it
// after the cursor's position: the cursor's values are of the keys' kinds,
// or it is a 400 here rather than a comparison the database refuses.
func (pg *pagination) seek(ks *keyset, digest string) error {
	pg.ks, pg.digest = ks, digest
	if pg.cfg.cursor == "" {
		pg.keepBase()
		pg.page = ks.order(pg.page)
		return nil
	}
	pos, err := pg.cfg.cursors.Decode(pg.cfg.cursor, ks.layout())
	if err != nil {
		return err
	}
	if pg.p.MaxLimit > 0 && pos.Limit > pg.p.MaxLimit {
		return paging.ErrCursorInvalid
	}
	if pos.Filter != digest {
		return paging.ErrCursorFilters
	}
	if pos.Count != nil && time.Since(pos.Count.At) < pg.cfg.countAge {
		pg.carried = pos.Count
	}
	pg.keepBase()
	pg.page = ks.order(pg.page)
	if pos.Row {
		pg.page, err = ks.afterRow(pg.c.db, pg.page, pos.After)
		pg.rowKey = pos.After
	} else if ks.sqlite {
		pg.page, err = ks.after(pg.page, pos.After)
	} else {
		pg.params = newParams(pos.After)
		pg.page, err = ks.after(pg.page, pg.params.args())
	}
	if err != nil {
		return paging.CursorError(err.Error())
	}
	pg.p, pg.byCursor = paging.Paging{Page: pos.Page + 1, Limit: pos.Limit}, true
	return nil
}

// keepBase gives the count its own copy of the query as it is now, with
// the filters alone, before the page query changes: the first call copies,
// later ones do nothing. A page whose cursor carried a fresh count counts
// nothing, so it is spared the copy, and the counter is left with no query.
func (pg *pagination) keepBase() {
	switch {
	case pg.c.base != pg.page:
	case pg.carried != nil:
		pg.c.base = nil
	default:
		pg.c.base = pg.page.Clone()
	}
}

// scan fetches the page, one row more than its limit so that has_next is
// exact: with direct (readDirect) where it reads the page, else with Bun.
// On PostgreSQL the count runs beside the page, on a connection of its
// own, unless a cursor brought one: a list that needs both waits for the
// slower, not for their sum. SQLite has one connection.
func (pg *pagination) scan(ctx context.Context, direct func(context.Context) (bool, error)) error {
	pg.keepBase()
	pg.page = pg.page.Limit(int64(pg.p.Limit) + 1)
	if !pg.byCursor {
		pg.page = pg.page.Offset(int64(pg.p.Offset()))
	}
	if pg.carried == nil && pg.cfg.count.kind != countNone && DialectOfDB(pg.c.db) == Postgres {
		if _, err := pg.c.render(); err != nil {
			return fmt.Errorf("paginate: %w", err)
		}
		pg.pending = make(chan tally, 1)
		go func() {
			growStack()
			pg.pending <- pg.c.tally(ctx, pg.cfg.count)
		}()
	}
	read, err := direct(ctx)
	if !read {
		err = pg.page.Scan(ctx)
	}
	if err != nil {
		pg.drain()
		return fmt.Errorf("paginate: %w", err)
	}
	return nil
}

// checkRow checks, for an empty page after a cursor's row, that the row
// is still there: when it is gone, no row compares after it, and the
// answer is ErrCursorRowGone rather than an empty page.
func (pg *pagination) checkRow(ctx context.Context) error {
	if pg.rowKey == nil {
		return nil
	}
	found, err := pg.ks.row(pg.c.db, pg.rowKey).Exists(ctx)
	switch {
	case err != nil:
		pg.drain()
		return fmt.Errorf("paginate: %w", err)
	case !found:
		pg.drain()
		return paging.ErrCursorRowGone
	}
	return nil
}

// drain waits for the count running beside the page, if one is.
func (pg *pagination) drain() {
	if pg.pending != nil {
		<-pg.pending
	}
}

// result is what the page says of the list, fetched rows on it: whether
// there is a next page and the total, shown by the page itself, counted
// (beside it or now) or carried by the cursor.
func (pg *pagination) result(ctx context.Context, fetched int, hasNext bool) (paging.Result, error) {
	k := known{offset: pg.p.Offset(), fetched: fetched, hasNext: hasNext, byCursor: pg.byCursor}
	total, shown := k.total()
	var t tally
	switch {
	case pg.pending != nil:
		t = <-pg.pending
	case shown:
	case pg.carried != nil:
		t = tally{n: pg.carried.Total, exact: pg.carried.Exact}
	default:
		t = pg.c.tally(ctx, pg.cfg.count)
	}
	if t.err != nil {
		return paging.Result{}, fmt.Errorf("paginate: %w", t.err)
	}
	res := paging.Result{HasNext: hasNext, Total: total, TotalExact: true}
	if !shown {
		res.Total, res.TotalExact = t.total(k)
	}
	return res, nil
}

// next is the signed cursor of the page after the one whose last row is
// last, carrying the count of res unless one was carried already.
func (pg *pagination) next(last reflect.Value, res paging.Result) (string, error) {
	pos := paging.Position{Page: pg.p.Page, Limit: pg.p.Limit, Filter: pg.digest, After: pg.ks.values(last), Count: pg.carried}
	if pg.carried == nil && pg.cfg.countAge > 0 {
		pos.Count = &paging.Count{Total: res.Total, Exact: res.TotalExact, At: time.Now()}
	}
	return encodeCursor(pg.cfg.cursors, pg.ks, pos)
}

// prepareKeyset resolves the keyset of a Paginate call and the digest of
// its query.
func prepareKeyset[T any](c *counter, cfg pageConfig) (*keyset, string, error) {
	if cfg.cursors == nil {
		return nil, "", errors.New("paginate: keyset paging needs WithCursors")
	}
	ks, err := newKeyset[T](c.db, keysOf(cfg.sort, cfg.keyset), cfg.keyset)
	if err != nil {
		return nil, "", fmt.Errorf("paginate: %w", err)
	}
	sql, err := c.render()
	if err != nil {
		return nil, "", fmt.Errorf("paginate: %w", err)
	}
	return ks, ks.digest(sql), nil
}

// encodeCursor signs pos. When the sort keys' values make it longer than
// paging.MaxCursorLength (long texts), it holds the last row's unique key
// instead (Position.Row), and the next page starts after that row's values
// as they are then.
func encodeCursor(cursors *paging.Cursors, ks *keyset, pos paging.Position) (string, error) {
	cursor, err := cursors.Encode(pos)
	if err != nil || len(cursor) <= paging.MaxCursorLength {
		return cursor, err
	}
	pos.After, pos.Row = ks.rowKey(pos.After), true
	if cursor, err = cursors.Encode(pos); err == nil && len(cursor) > paging.MaxCursorLength {
		err = fmt.Errorf("the cursor of the row key %v is %d characters, more than %d", pos.After, len(cursor), paging.MaxCursorLength)
	}
	return cursor, err
}
