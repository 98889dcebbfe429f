package repositories

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"github.com/asapjs/fiber-template/app/models"
	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/paging"
)

// Users is the repository of users.
type Users struct {
	db      bun.IDB
	listing []database.Option
}

// NewUsers returns the repository of users on db, a database or a
// transaction. listing applies to every List: it must hold
// database.WithCursors, which signs the list's cursors, and may choose the
// count strategy with database.WithCount.
func NewUsers(db bun.IDB, listing ...database.Option) *Users {
	return &Users{db: db, listing: listing}
}

// UserFilter narrows a list of users; zero fields do not filter.
type UserFilter struct {
	// Role keeps the users with this role.
	Role string
	// Query keeps the users whose name or email contains it, case aside.
	Query string
	// Active keeps the active users when true, the inactive ones when
	// false.
	Active *bool
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

// Create inserts u and fills in its id and creation time. A taken email is
// ErrDuplicate.
func (r *Users) Create(ctx context.Context, u *models.User) error {
	if _, err := r.db.NewInsert().Model(u).Returning("*").Exec(ctx); err != nil {
		if isUniqueViolation(err) {
			return ErrDuplicate
		}
		return fmt.Errorf("insert user: %w", err)
	}
	return nil
}

// Get returns the user with the id, or ErrNotFound.
func (r *Users) Get(ctx context.Context, id int64) (*models.User, error) {
	u := new(models.User)
	if err := r.db.NewSelect().Model(u).Where("id = ?", id).Scan(ctx); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, ErrNotFound
		}
		return nil, fmt.Errorf("select user %d: %w", id, err)
	}
	return u, nil
}

// GetByEmail returns the user with the email, which must be lower-cased
// already, or ErrNotFound.
func (r *Users) GetByEmail(ctx context.Context, email string) (*models.User, error) {
	u := new(models.User)
	if err := r.db.NewSelect().Model(u).Where("email = ?", email).Scan(ctx); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, ErrNotFound
		}
		return nil, fmt.Errorf("select user by email: %w", err)
	}
	return u, nil
}

// List returns one page of the users f selects, in the order of sort
// (models.SortKeys), ties and no sort by id, so that the pages partition
// the result: page p, or with a cursor (the next_cursor of a page of the
// same filters and sort) the page after that one, found by its keys. A bad
// cursor is a *paging.FieldError naming "cursor".
func (r *Users) List(ctx context.Context, f UserFilter, p paging.Paging, sort []paging.SortKey, cursor string) (paging.Page[models.User], error) {
	q := r.db.NewSelect().Model((*models.User)(nil))
	if f.Role != "" {
		q = q.Where("role = ?", f.Role)
	}
	if f.Active != nil {
		q = q.Where("active = ?", *f.Active)
	}
	if f.Query != "" {
		// Both sides lowered by the database, alike: the text always
		// finds itself, and case aside as far as the database's LOWER
		// goes (ASCII on SQLite, the locale's letters on PostgreSQL).
		pattern := containsPattern(f.Query)
		q = q.Where("(LOWER(name) LIKE LOWER(?) ESCAPE '"+likeEscape+"' OR LOWER(email) LIKE LOWER(?) ESCAPE '"+likeEscape+"')", pattern, pattern)
	}
	opts := append(slices.Clip(r.listing), database.WithKeyset("id"), database.WithSort(sort...), database.WithCursor(cursor))
	page, err := database.Paginate[models.User](ctx, q, p, opts...)
	if err != nil {
		return page, fmt.Errorf("list users: %w", err)
	}
	return page, nil
}

// Update writes the email, name, role and active flag of u, whose id must
// exist (else ErrNotFound), raises its version and reads the row back into
// u. With versions, the write is conditional, in the same statement: it
// happens only if the row is at one of them, else a *StaleError with the
// current version. A taken email is ErrDuplicate; demoting or deactivating
// the last active admin is ErrLastAdmin.
func (r *Users) Update(ctx context.Context, u *models.User, versions ...int64) error {
	return r.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if u.Role != models.RoleAdmin || !u.Active {
			if err := keepAnAdmin(ctx, tx, u.ID); err != nil {
				return err
			}
		}
		q := tx.NewUpdate().Model(u).
			Set("email = ?", u.Email).
			Set("name = ?", u.Name).
			Set("role = ?", u.Role).
			Set("active = ?", u.Active).
			Set("version = version + 1").
			WherePK()
		if len(versions) > 0 {
			q = q.Where("version IN (?)", bun.List(versions))
		}
		res, err := q.Returning("*").Exec(ctx)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return staleOrMissing(ctx, tx, u.ID, versions)
		case err != nil && isUniqueViolation(err):
			return ErrDuplicate
		case err != nil:
			return fmt.Errorf("update user %d: %w", u.ID, err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return fmt.Errorf("update user %d: %w", u.ID, err)
		}
		if n == 0 {
			return staleOrMissing(ctx, tx, u.ID, versions)
		}
		return nil
	})
}

// staleOrMissing explains a write that changed no row: ErrNotFound when
// the user does not exist, a *StaleError with its version when the write
// was conditional on others.
func staleOrMissing(ctx context.Context, tx bun.Tx, id int64, versions []int64) error {
	var current int64
	err := tx.NewSelect().Model((*models.User)(nil)).Column("version").Where("id = ?", id).Scan(ctx, &current)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return ErrNotFound
	case err != nil:
		return fmt.Errorf("read the version of user %d: %w", id, err)
	case len(versions) == 0:
		return fmt.Errorf("user %d exists, but the unconditional write changed nothing", id)
	}
	return &StaleError{Current: current}
}

// SetPassword replaces the password hash of the user with the id, or
// answers ErrNotFound.
func (r *Users) SetPassword(ctx context.Context, id int64, hash string) error {
	res, err := r.db.NewUpdate().Model((*models.User)(nil)).Set("password_hash = ?", hash).Where("id = ?", id).Exec(ctx)
	if err != nil {
		return fmt.Errorf("set password of user %d: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return ErrNotFound
	}
	return nil
}

// Delete removes the user with the id, or answers ErrNotFound; deleting
// the last active admin is ErrLastAdmin. With versions, the delete is
// conditional as Update's is.
func (r *Users) Delete(ctx context.Context, id int64, versions ...int64) error {
	return r.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := keepAnAdmin(ctx, tx, id); err != nil {
			return err
		}
		q := tx.NewDelete().Model((*models.User)(nil)).Where("id = ?", id)
		if len(versions) > 0 {
			q = q.Where("version IN (?)", bun.List(versions))
		}
		res, err := q.Exec(ctx)
		if err != nil {
			return fmt.Errorf("delete user %d: %w", id, err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return fmt.Errorf("delete user %d: %w", id, err)
		}
		if n == 0 {
			return staleOrMissing(ctx, tx, id, versions)
		}
		return nil
	})
}

// CheckDelete answers ErrLastAdmin when deleting the user with the id would
// leave no active admin, before anything that must not happen for nothing
// (ending its sessions). Delete checks again, in its transaction.
func (r *Users) CheckDelete(ctx context.Context, id int64) error {
	return r.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return keepAnAdmin(ctx, tx, id)
	})
}

// keepAnAdmin returns ErrLastAdmin when the user with the id is the only
// active admin, so that it must not stop being one. On PostgreSQL the
// active admins' rows stay locked until tx ends, so two admins demoting
// each other at once cannot both succeed; SQLite has one writer anyway.
func keepAnAdmin(ctx context.Context, tx bun.Tx, id int64) error {
	var ids []int64
	q := tx.NewSelect().Model((*models.User)(nil)).Column("id").
		Where("role = ?", models.RoleAdmin).Where("active = ?", true)
	if tx.Dialect().Name() == dialect.PG {
		q = q.For("UPDATE")
	}
	if err := q.Scan(ctx, &ids); err != nil {
		return fmt.Errorf("select active admins: %w", err)
	}
	if len(ids) == 1 && ids[0] == id {
		return ErrLastAdmin
	}
	return nil
}
