package database

import (
	"context"
	"errors"
	"fmt"
	"reflect"

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
	var cfg pageConfig
	for _, o := range opts {
		o(&cfg)
	}
	items := make([]T, 0, p.Limit+1)
	// The count runs on a copy with the filters alone; the page query gets
	// the order, the keyset condition, the limit and the offset.
	page := q.Model(&items)
	c := &counter{db: q.DB(), base: page.Clone()}
	byCursor := false
	var ks *keyset
	var digest string
	if len(cfg.keyset) > 0 {
		var err error
		if ks, digest, err = prepareKeyset[T](c, cfg); err != nil {
			return paging.Page[T]{}, err
		}
		page = ks.order(page)
		if cfg.cursor != "" {
			pos, err := cfg.cursors.Decode(cfg.cursor)
			if err != nil {
				return paging.Page[T]{}, err
			}
			if p.MaxLimit > 0 && pos.Limit > p.MaxLimit {
				return paging.Page[T]{}, paging.ErrCursorInvalid
			}
			if pos.Filter != digest {
				return paging.Page[T]{}, paging.ErrCursorFilters
			}
			if page, err = ks.after(page, pos.After); err != nil {
				return paging.Page[T]{}, &paging.FieldError{Field: "cursor", Message: err.Error()}
			}
			p, byCursor = paging.Paging{Page: pos.Page + 1, Limit: pos.Limit}, true
		}
	} else if cfg.cursor != "" {
		return paging.Page[T]{}, &paging.FieldError{Field: "cursor", Message: "this list does not take cursors"}
	}

	page = page.Limit(int64(p.Limit) + 1)
	if !byCursor {
		page = page.Offset(int64(p.Offset()))
	}
	if err := page.Scan(ctx); err != nil {
		return paging.Page[T]{}, fmt.Errorf("paginate: %w", err)
	}
	hasNext := len(items) > p.Limit
	if hasNext {
		items = items[:p.Limit]
	}

	total, exact, err := c.count(ctx, cfg.count, known{offset: p.Offset(), fetched: len(items), hasNext: hasNext, byCursor: byCursor})
	if err != nil {
		return paging.Page[T]{}, fmt.Errorf("paginate: %w", err)
	}
	res := paging.Result{HasNext: hasNext, Total: total, TotalExact: exact}
	if ks != nil && hasNext {
		after, err := ks.values(reflect.ValueOf(&items[len(items)-1]).Elem())
		if err != nil {
			return paging.Page[T]{}, fmt.Errorf("paginate: %w", err)
		}
		res.NextCursor, err = cfg.cursors.Encode(paging.Position{Page: p.Page, Limit: p.Limit, Filter: digest, After: after})
		if err != nil {
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
	ks, err := newKeyset[T](c.db, cfg.keyset)
	if err != nil {
		return nil, "", fmt.Errorf("paginate: %w", err)
	}
	sql, err := c.render()
	if err != nil {
		return nil, "", fmt.Errorf("paginate: %w", err)
	}
	return ks, ks.digest(sql), nil
}
