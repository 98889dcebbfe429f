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
// (other filters), is a *paging.FieldError naming "cursor", which a handler
// answers with a 400.
func Paginate[T any](ctx context.Context, q *bun.SelectQuery, p paging.Paging, opts ...Option) (paging.Page[T], error) {
	cfg := pageConfig{countAge: DefaultCountMaxAge}
	for _, o := range opts {
		o(&cfg)
	}
	items := make([]T, 0, p.Limit+1)
	// The count runs on a copy with the filters alone; the page query gets
	// the order, the keyset condition, the limit and the offset.
	page := q.Model(&items)
	c := &counter{db: q.DB(), base: page.Clone(), reads: cfg.reads}
	byCursor := false
	var (
		ks      *keyset
		digest  string
		carried *paging.Count
		// rowKey is the row a cursor of Position.Row continues after.
		rowKey []any
	)
	if len(cfg.keyset) > 0 {
		var err error
		if ks, digest, err = prepareKeyset[T](c, cfg); err != nil {
			return paging.Page[T]{}, err
		}
		page = ks.order(page)
		if cfg.cursor != "" {
			// The cursor's values are of the keys' kinds, or it is a 400
			// here rather than a comparison the database refuses.
			pos, err := cfg.cursors.Decode(cfg.cursor, ks.layout())
			if err != nil {
				return paging.Page[T]{}, err
			}
			if p.MaxLimit > 0 && pos.Limit > p.MaxLimit {
				return paging.Page[T]{}, paging.ErrCursorInvalid
			}
			if pos.Filter != digest {
				return paging.Page[T]{}, paging.ErrCursorFilters
			}
			if pos.Row {
				page, err = ks.afterRow(c.db, page, pos.After)
				rowKey = pos.After
			} else {
				page, err = ks.after(page, pos.After)
			}
			if err != nil {
				return paging.Page[T]{}, &paging.FieldError{Field: "cursor", Message: err.Error()}
			}
			p, byCursor = paging.Paging{Page: pos.Page + 1, Limit: pos.Limit}, true
			if pos.Count != nil && time.Since(pos.Count.At) < cfg.countAge {
				carried = pos.Count
			}
		}
	} else if cfg.cursor != "" {
		return paging.Page[T]{}, &paging.FieldError{Field: "cursor", Message: "this list does not take cursors"}
	} else if len(cfg.sort) > 0 {
		return paging.Page[T]{}, errors.New("paginate: WithSort needs WithKeyset")
	}

	page = page.Limit(int64(p.Limit) + 1)
	if !byCursor {
		page = page.Offset(int64(p.Offset()))
	}
	// On PostgreSQL the count runs beside the page, on a connection of its
	// own, unless a cursor brought one: a list that needs both waits for
	// the slower, not for their sum. SQLite has one connection.
	var pending chan tally
	if carried == nil && cfg.count.kind != countNone && DialectOfDB(c.db) == Postgres {
		if _, err := c.render(); err != nil {
			return paging.Page[T]{}, fmt.Errorf("paginate: %w", err)
		}
		pending = make(chan tally, 1)
		go func() { pending <- c.tally(ctx, cfg.count) }()
	}
	if err := page.Scan(ctx); err != nil {
		if pending != nil {
			<-pending
		}
		return paging.Page[T]{}, fmt.Errorf("paginate: %w", err)
	}
	if len(items) == 0 && rowKey != nil {
		// The row may be gone: then no row compares after it.
		if found, err := ks.row(c.db, rowKey).Exists(ctx); err != nil || !found {
			if pending != nil {
				<-pending
			}
			if err != nil {
				return paging.Page[T]{}, fmt.Errorf("paginate: %w", err)
			}
			return paging.Page[T]{}, paging.ErrCursorRowGone
		}
	}
	hasNext := len(items) > p.Limit
	if hasNext {
		items = items[:p.Limit]
	}

	k := known{offset: p.Offset(), fetched: len(items), hasNext: hasNext, byCursor: byCursor}
	total, shown := k.total()
	var t tally
	switch {
	case pending != nil:
		t = <-pending
	case shown:
	case carried != nil:
		t = tally{n: carried.Total, exact: carried.Exact}
	default:
		t = c.tally(ctx, cfg.count)
	}
	if t.err != nil {
		return paging.Page[T]{}, fmt.Errorf("paginate: %w", t.err)
	}
	res := paging.Result{HasNext: hasNext, Total: total, TotalExact: true}
	if !shown {
		res.Total, res.TotalExact = t.total(k)
	}
	if ks != nil && hasNext {
		after := ks.values(reflect.ValueOf(&items[len(items)-1]).Elem())
		pos := paging.Position{Page: p.Page, Limit: p.Limit, Filter: digest, After: after, Count: carried}
		if carried == nil && cfg.countAge > 0 {
			pos.Count = &paging.Count{Total: res.Total, Exact: res.TotalExact, At: time.Now()}
		}
		var err error
		if res.NextCursor, err = encodeCursor(cfg.cursors, ks, pos); err != nil {
			return paging.Page[T]{}, fmt.Errorf("paginate: %w", err)
		}
	}
	return paging.Of(items, p, res), nil
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
