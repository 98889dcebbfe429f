package repositories

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/paging"
)

// records[T] is what the repositories share, users and the resources the
// starter generates alike: the rows of model T, keyed by an int64 id
// column and versioned by an int64 version column, on db (a database or a
// transaction), listed with the listing options, which must hold
// database.WithCursors and may choose the count strategy with
// database.WithCount.
type records[T any] struct {
	db      bun.IDB
	listing []database.Option
	// what names the rows in errors: "order".
	what string
	// kept are the columns replace leaves as they are, beside the id, the
	// creation time and the version: what a representation does not carry
	// (a user's password hash).
	kept []string
}

// on returns r on db: a transaction's.
func (r records[T]) on(db bun.IDB) records[T] {
	r.db = db
	return r
}

// insert inserts row and reads it back, id and defaults filled in. A
// value a unique constraint already holds is ErrDuplicate.
func (r records[T]) insert(ctx context.Context, row *T) error {
	if _, err := r.db.NewInsert().Model(row).Returning("*").Exec(ctx); err != nil {
		if isUniqueViolation(err) {
			return ErrDuplicate
		}
		return fmt.Errorf("insert %s: %w", r.what, err)
	}
	return nil
}

// get returns the row with the id, or ErrNotFound.
func (r records[T]) get(ctx context.Context, id int64) (*T, error) {
	row, err := database.OneWhere[T](ctx, r.db, "id = ?", id)
	if err != nil {
		return nil, r.affected(id, nil, err)
	}
	return row, nil
}

// replace writes every column of row but the id, the creation time, the
// version and the kept ones, raises the version, and reads the row back,
// where the id is row's and, with versions, the version is one of them:
// the check of an If-Match and the write are one statement. No row with
// the id is ErrNotFound; a row at another version is a *StaleError; a
// value a unique constraint already holds is ErrDuplicate.
func (r records[T]) replace(ctx context.Context, row *T, id int64, versions []int64) error {
	q := r.db.NewUpdate().Model(row).ExcludeColumn(append([]string{"id", "created_at", "version"}, r.kept...)...).
		Set("version = version + 1").WherePK()
	if len(versions) > 0 {
		q = q.Where("version IN (?)", bun.List(versions))
	}
	res, err := q.Returning("*").Exec(ctx)
	return r.conditional(ctx, id, versions, r.affected(id, res, err))
}

// remove deletes the row with the id and, with versions, one of those
// versions; errors as replace's.
func (r records[T]) remove(ctx context.Context, id int64, versions []int64) error {
	q := r.db.NewDelete().Model((*T)(nil)).Where("id = ?", id)
	if len(versions) > 0 {
		q = q.Where("version IN (?)", bun.List(versions))
	}
	res, err := q.Exec(ctx)
	return r.conditional(ctx, id, versions, r.affected(id, res, err))
}

// conditional explains a conditional write that found no row: ErrNotFound
// when the row with the id does not exist, a *StaleError with its version
// when it is at another one.
func (r records[T]) conditional(ctx context.Context, id int64, versions []int64, err error) error {
	if len(versions) == 0 || !errors.Is(err, ErrNotFound) {
		return err
	}
	var current int64
	err = r.db.NewSelect().Model((*T)(nil)).Column("version").Where("id = ?", id).Scan(ctx, &current)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return ErrNotFound
	case err != nil:
		return fmt.Errorf("read the version of %s %d: %w", r.what, id, err)
	}
	return &StaleError{Current: current}
}

// affected turns the outcome of a statement on the row with the id into
// the repository's errors: no row (no result, or none affected) is
// ErrNotFound, a unique constraint's refusal ErrDuplicate.
func (r records[T]) affected(id int64, res sql.Result, err error) error {
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return ErrNotFound
	case err != nil && isUniqueViolation(err):
		return ErrDuplicate
	}
	if err == nil && res != nil {
		var n int64
		if n, err = res.RowsAffected(); err == nil && n == 0 {
			return ErrNotFound
		}
	}
	if err != nil {
		return fmt.Errorf("%s %d: %w", r.what, id, err)
	}
	return nil
}

// likeEscape is the escape character of the LIKE patterns. It is not a
// backslash, which the two databases and Bun's formatter treat differently.
const likeEscape = "!"

// containsPattern returns the LIKE pattern matching s anywhere, with the
// wildcards % and _ in s matching only themselves.
func containsPattern(s string) string {
	r := strings.NewReplacer(likeEscape, likeEscape+likeEscape, "%", likeEscape+"%", "_", likeEscape+"_")
	return "%" + r.Replace(s) + "%"
}

// search narrows q to the rows where one of the columns contains text,
// case aside; an empty text keeps every row.
func search(q *bun.SelectQuery, text string, columns ...string) *bun.SelectQuery {
	if text == "" {
		return q
	}
	// Both sides lowered by the database, alike: the text always finds
	// itself, and case aside as far as the database's LOWER goes (ASCII on
	// SQLite, the locale's letters on PostgreSQL).
	pattern := containsPattern(text)
	return q.WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
		for _, c := range columns {
			q = q.WhereOr("LOWER(?) LIKE LOWER(?) ESCAPE '"+likeEscape+"'", bun.Ident(c), pattern)
		}
		return q
	})
}

// page returns one page of the rows q selects, in the order of sort, ties
// and no sort by id: page p, or with a cursor (the next_cursor of a page
// of the same query and sort) the page after that one, found by its keys.
// A bad cursor is a *paging.FieldError naming paging.CursorParam.
func (r records[T]) page(ctx context.Context, q *bun.SelectQuery, p paging.Paging, sort []paging.SortKey, cursor string) (paging.Page[T], error) {
	// The full slice expression makes append copy, so that calls never
	// share an array.
	opts := append(r.listing[:len(r.listing):len(r.listing)], database.WithKeyset("id"), database.WithSort(sort...), database.WithCursor(cursor))
	page, err := database.Paginate[T](ctx, q, p, opts...)
	if err != nil {
		return page, fmt.Errorf("list %s: %w", r.what, err)
	}
	return page, nil
}
