package database

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/platform/paging"
)

// Paginate runs the count-and-find of one page of q: it scans at most
// p.Limit rows at offset p.Limit*p.Page into a slice of T and counts every
// row q selects, in one ScanAndCount. q should be ordered by a unique key so
// that pages partition the result.
func Paginate[T any](ctx context.Context, q *bun.SelectQuery, p paging.Paging) (paging.Page[T], error) {
	items := make([]T, 0, p.Limit)
	total, err := q.Model(&items).Limit(int64(p.Limit)).Offset(int64(p.Offset())).ScanAndCount(ctx)
	if err != nil {
		return paging.Page[T]{}, fmt.Errorf("paginate: %w", err)
	}
	return paging.New(items, int(total), p), nil
}
