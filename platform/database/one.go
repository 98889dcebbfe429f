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
	return one[T](ctx, q, nil)
}

// OneWhere is One of db.NewSelect().Where(query, args...), the row of a
// condition: a row by id. Read through pgx, the args that are plain values
// (a bool, a number, a string, a time or bytes) go beside the query as its
// parameters rather than into its text, as a cursor's keys do in Paginate:
// every read of the condition is then one statement, which the pool's
// connections prepare and PostgreSQL plans once. Read by Bun, they are
// written in, as Where writes them; an argument that writes itself
// (bun.Ident, bun.List, a query) is written in either way.
//
//	user, err := database.OneWhere[User](ctx, db, "id = ?", id)
func OneWhere[T any](ctx context.Context, db bun.IDB, query string, args ...any) (*T, error) {
	ps := newParams(args)
	return one[T](ctx, db.NewSelect().Where(query, ps.args()...), ps)
}

// one is One, with the values of ps sent beside the query.
func one[T any](ctx context.Context, q *bun.SelectQuery, ps *params) (*T, error) {
	rows := make([]T, 0, 1)
	read, err := readDirect(ctx, q.DB(), q.Model(&rows), &rows, ps)
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
