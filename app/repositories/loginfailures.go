package repositories

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"github.com/asapjs/fiber-template/app/models"
)

// LoginFailures is the repository of failed logins, counted per account
// and client address in the database so that every instance sees them.
type LoginFailures struct {
	db bun.IDB
}

// NewLoginFailures returns the repository of failed logins on db.
func NewLoginFailures(db bun.IDB) *LoginFailures {
	return &LoginFailures{db: db}
}

// Recent returns how many logins for email from address failed after
// since, or are pending (their password being checked), when the oldest of
// them failed, and when the newest pending one but self began (zero when
// none is). It counts every failure it can see, not only those recorded
// before a given one: ids are handed out before their rows commit, so an
// attempt that counted only the failures with a smaller id could miss one
// that commits after it counts, and of attempts sent at once more than the
// limit could pass. Counting them all, each attempt that passes has seen
// every attempt that passed before it.
func (r *LoginFailures) Recent(ctx context.Context, email, address string, since time.Time, self int64) (n int, oldest, pending time.Time, err error) {
	var rows []models.LoginFailure
	if err := r.db.NewSelect().Model(&rows).Column("id", "failed_at", "pending").
		Where("email = ?", email).Where("address = ?", address).Where("failed_at > ?", since).
		Order("failed_at").
		Scan(ctx); err != nil {
		return 0, time.Time{}, time.Time{}, fmt.Errorf("select login failures: %w", err)
	}
	if len(rows) == 0 {
		return 0, time.Time{}, time.Time{}, nil
	}
	for _, f := range rows {
		if f.Pending && f.ID != self && f.FailedAt.After(pending) {
			pending = f.FailedAt
		}
	}
	return len(rows), rows[0].FailedAt, pending, nil
}

// Counted records a pending login for email from address at now, as Add,
// and then counts as Recent does after since, the two in one transaction
// that logins for the same account and address take in turn: on
// PostgreSQL behind a transaction-level advisory lock of the pair, on
// SQLite on its single connection. So of logins sent at once, each counts
// every one before it, and the first ones within the limit pass. id is 0
// when nothing was recorded.
func (r *LoginFailures) Counted(ctx context.Context, email, address string, now, since time.Time) (id int64, n int, oldest, pending time.Time, err error) {
	err = r.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if tx.Dialect().Name() == dialect.PG {
			if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", address+" "+email); err != nil {
				return fmt.Errorf("lock the login failures of %s: %w", email, err)
			}
		}
		in := &LoginFailures{db: tx}
		var err error
		if id, err = in.Add(ctx, email, address, now); err != nil {
			return err
		}
		n, oldest, pending, err = in.Recent(ctx, email, address, since, id)
		return err
	})
	if err != nil {
		return 0, 0, time.Time{}, time.Time{}, err
	}
	return id, n, oldest, pending, nil
}

// Add records a login for email from address at now, pending while its
// password is checked, and returns its id.
func (r *LoginFailures) Add(ctx context.Context, email, address string, now time.Time) (int64, error) {
	f := &models.LoginFailure{Email: email, Address: address, FailedAt: now, Pending: true}
	if _, err := r.db.NewInsert().Model(f).Returning("id").Exec(ctx); err != nil {
		return 0, fmt.Errorf("insert login failure: %w", err)
	}
	return f.ID, nil
}

// Failed marks the pending login with the id as a failure: its password
// was wrong.
func (r *LoginFailures) Failed(ctx context.Context, id int64) error {
	if _, err := r.db.NewUpdate().Model((*models.LoginFailure)(nil)).Set("pending = ?", false).Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("mark login failure %d: %w", id, err)
	}
	return nil
}

// Remove forgets one recorded failure.
func (r *LoginFailures) Remove(ctx context.Context, id int64) error {
	if _, err := r.db.NewDelete().Model((*models.LoginFailure)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("delete login failure: %w", err)
	}
	return nil
}

// Clear forgets the failed logins for email from address, after a
// successful one.
func (r *LoginFailures) Clear(ctx context.Context, email, address string) error {
	if _, err := r.db.NewDelete().Model((*models.LoginFailure)(nil)).
		Where("email = ?", email).Where("address = ?", address).Exec(ctx); err != nil {
		return fmt.Errorf("delete login failures: %w", err)
	}
	return nil
}

// Prune deletes the failures older than before.
func (r *LoginFailures) Prune(ctx context.Context, before time.Time) error {
	if _, err := r.db.NewDelete().Model((*models.LoginFailure)(nil)).Where("failed_at <= ?", before).Exec(ctx); err != nil {
		return fmt.Errorf("prune login failures: %w", err)
	}
	return nil
}
