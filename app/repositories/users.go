package repositories

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"github.com/asapjs/fiber-template/app/models"
	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/paging"
)

// Users is the repository of users: the rows every repository shares
// (records), and the rules of users on top, an email that is unique and an
// active admin that always remains.
type Users struct{ rows records[models.User] }

// NewUsers returns the repository of users on db, a database or a
// transaction. listing applies to every List: it must hold
// database.WithCursors, which signs the list's cursors, and may choose the
// count strategy with database.WithCount.
func NewUsers(db bun.IDB, listing ...database.Option) *Users {
	// The password hash and the session epoch are not part of a user's
	// representation: Update never writes them; SetPassword and the
	// sessions' RevokeUser do.
	return &Users{records[models.User]{db: db, listing: listing, what: "user", kept: []string{"password_hash", "session_epoch", "sessions_ended_at"}}}
}

// UserFilter narrows a list of users; zero fields do not filter.
type UserFilter struct {
	// Role keeps the users with this role.
	Role string
	// Active keeps the active users when true, the inactive ones when
	// false.
	Active *bool
	// Query keeps the users whose name or email contains it, case aside.
	Query string
}

// Create inserts u and fills in its id and creation time. A taken email is
// ErrDuplicate.
func (r *Users) Create(ctx context.Context, u *models.User) error {
	return r.rows.insert(ctx, u)
}

// Get returns the user with the id, or ErrNotFound.
func (r *Users) Get(ctx context.Context, id int64) (*models.User, error) {
	return r.rows.get(ctx, id)
}

// GetByEmail returns the user with the email, which must be lower-cased
// already, or ErrNotFound.
func (r *Users) GetByEmail(ctx context.Context, email string) (*models.User, error) {
	u := new(models.User)
	if err := r.rows.db.NewSelect().Model(u).Where("email = ?", email).Scan(ctx); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, ErrNotFound
		}
		return nil, fmt.Errorf("select user by email: %w", err)
	}
	return u, nil
}

// List returns one page of the users f selects, in the order of sort
// (keys of models.UserSortKeys), ties and no sort by id, so that the pages partition
// the result: page p, or with a cursor (the next_cursor of a page of the
// same filters and sort) the page after that one, found by its keys. A bad
// cursor is a *paging.FieldError naming paging.CursorParam.
func (r *Users) List(ctx context.Context, f UserFilter, p paging.Paging, sort []paging.SortKey, cursor string) (paging.Page[models.User], error) {
	// A list reads the columns a page shows and the version, never the
	// password hashes or the sessions' columns: less to send and scan for
	// every row, and no column list built again for every request.
	q := r.rows.db.NewSelect().Model((*models.User)(nil)).
		Column("id", "email", "name", "role", "active", "created_at", "version")
	if f.Role != "" {
		q = q.Where("role = ?", f.Role)
	}
	if f.Active != nil {
		q = q.Where("active = ?", *f.Active)
	}
	q = search(q, f.Query, "name", "email")
	return r.rows.page(ctx, q, p, sort, cursor)
}

// Update writes the email, name, role and active flag of u, whose id must
// exist (else ErrNotFound), raises its version and reads the row back into
// u. With versions, the write is conditional, in the same statement: it
// happens only if the row is at one of them, else a *StaleError with the
// current version. A taken email is ErrDuplicate; demoting or deactivating
// the last active admin is ErrLastAdmin.
func (r *Users) Update(ctx context.Context, u *models.User, versions ...int64) error {
	return r.rows.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if u.Role != models.RoleAdmin || !u.Active {
			if err := keepAnAdmin(ctx, tx, u.ID); err != nil {
				return err
			}
		}
		return r.rows.on(tx).replace(ctx, u, u.ID, versions)
	})
}

// SetPassword replaces the password hash of the user with the id, or
// answers ErrNotFound.
func (r *Users) SetPassword(ctx context.Context, id int64, hash string) error {
	res, err := r.rows.db.NewUpdate().Model((*models.User)(nil)).Set("password_hash = ?", hash).Where("id = ?", id).Exec(ctx)
	return r.rows.affected(id, res, err)
}

// Delete removes the user with the id, or answers ErrNotFound; deleting
// the last active admin is ErrLastAdmin. With versions, the delete is
// conditional as Update's is.
func (r *Users) Delete(ctx context.Context, id int64, versions ...int64) error {
	return r.rows.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := keepAnAdmin(ctx, tx, id); err != nil {
			return err
		}
		return r.rows.on(tx).remove(ctx, id, versions)
	})
}

// CheckDelete answers ErrLastAdmin when deleting the user with the id would
// leave no active admin, before anything that must not happen for nothing
// (ending its sessions). Delete checks again, in its transaction.
func (r *Users) CheckDelete(ctx context.Context, id int64) error {
	return r.rows.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
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
