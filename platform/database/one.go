package database

import (
	"context"
	"database/sql"

	"github.com/uptrace/bun"
)

// One returns the first row q selects as a new T, and sql.ErrNoRows when
// it selects none: what q.Model(row).Scan(ctx) gives. On PostgreSQL it is
// read as Paginate reads a page, through pgx on the pool's connection, and
// with Bun where Paginate's page would be (see Paginate):
//
//	user, err := database.One[User](ctx, db.NewSelect().Where("id = ?", id))
func One[T any](ctx context.Context, q *bun.SelectQuery) (*T, error) {
	rows := make([]T, 0, 1)
	read, err := readDirect(ctx, q.DB(), q.Model(&rows), &rows, nil)
	switch {
	case !read:
		row := new(T)
		if err := q.Model(row).Scan(ctx); err != nil {
			return nil, err
		}
		return row, nil
	case err != nil:
		return nil, err
	case len(rows) == 0:
		return nil, sql.ErrNoRows
	}
	return &rows[0], nil
}
