package repositories

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"github.com/asapjs/fiber-template/app/models"
	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/paging"
)

// RevokedChannel is the PostgreSQL notification channel a revocation is
// announced on, its payload the session id.
const RevokedChannel = "session_revoked"

// Errors of refresh-token exchanges.
var (
	// ErrReused is returned for a refresh token that was already rotated:
	// its session is revoked by then.
	ErrReused = errors.New("repositories: refresh token reused")
	// ErrSessionEnded is returned for a refresh token of an expired or
	// revoked session.
	ErrSessionEnded = errors.New("repositories: session ended")
)

// Sessions is the repository of login sessions, their refresh tokens and
// the revocations every instance honours.
type Sessions struct {
	db bun.IDB
}

// NewSessions returns the repository of sessions on db.
func NewSessions(db bun.IDB) *Sessions {
	return &Sessions{db: db}
}

// ErrUserChanged is the answer of Begin when the user is no longer as its
// login read it: deleted, deactivated, with another password, or with
// sessions ended since.
var ErrUserChanged = errors.New("repositories: user changed during login")

// Begin stores a new session s of the user read, whose password a login
// that arrived at began has just checked, with its first refresh token's
// hash, if the user is still as read: its row, locked until the
// transaction ends, still exists, is active, has the same password hash
// and the same session epoch, and its sessions were last ended before
// began. Otherwise it is ErrUserChanged and nothing is stored. sign runs
// under the lock, after the inserts, with the user as it is then: a token
// it signs carries a role the user has.
//
// The lock orders every login against RevokeUser, which takes the same
// row: a session stored before RevokeUser is ended by it; a login that
// read the user before it and stores after finds the epoch raised; and
// one that arrived before it but read the user after (queued behind other
// logins, say) finds its sessions ended after it arrived.
func (r *Sessions) Begin(ctx context.Context, s *models.Session, refreshHash string, read *models.User, began time.Time, sign func(*models.User) error) error {
	return r.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		u, err := lockUser(ctx, tx, read.ID)
		switch {
		case errors.Is(err, ErrNotFound):
			return ErrUserChanged
		case err != nil:
			return err
		case !u.Active || u.PasswordHash != read.PasswordHash || u.SessionEpoch != read.SessionEpoch:
			return ErrUserChanged
		case !u.SessionsEndedAt.IsZero() && !u.SessionsEndedAt.Before(began):
			return ErrUserChanged
		}
		if _, err := tx.NewInsert().Model(s).Exec(ctx); err != nil {
			return fmt.Errorf("insert session: %w", err)
		}
		if _, err := tx.NewInsert().Model(&models.RefreshToken{Hash: refreshHash, SessionID: s.ID, CreatedAt: s.CreatedAt}).Exec(ctx); err != nil {
			return fmt.Errorf("insert refresh token: %w", err)
		}
		return sign(u)
	})
}

// lockUser reads the user with the id and, on PostgreSQL, locks its row
// until tx ends (SQLite has one writer, and the service one connection to
// it); no such user is ErrNotFound.
func lockUser(ctx context.Context, tx bun.Tx, id int64) (*models.User, error) {
	u := new(models.User)
	q := tx.NewSelect().Model(u).Where("id = ?", id)
	if tx.Dialect().Name() == dialect.PG {
		q = q.For("UPDATE")
	}
	if err := q.Scan(ctx); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, ErrNotFound
		}
		return nil, fmt.Errorf("lock user %d: %w", id, err)
	}
	return u, nil
}

// Rotate exchanges the refresh token with hash oldHash for newHash and
// returns its session. A token already rotated is ErrReused, and revokes
// the session with revocationTTL (RFC 9700 §4.14.2); an unknown one is
// ErrNotFound, one of an ended session, or of a user that is gone or
// inactive, ErrSessionEnded. sign runs with the session's user, its row
// locked as Begin locks it, so that the exchange is ordered against
// RevokeUser too: a session it ends cannot be refreshed after it, and a
// token signed carries a role the user has.
func (r *Sessions) Rotate(ctx context.Context, oldHash, newHash string, now time.Time, revocationTTL time.Duration, sign func(*models.Session, *models.User) error) (*models.Session, error) {
	var (
		s      models.Session
		reused bool
	)
	err := r.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		// Marking the token rotated is the test: of two exchanges racing
		// with one token, one updates the row and the other finds it used.
		res, err := tx.NewUpdate().Model((*models.RefreshToken)(nil)).
			Set("rotated_at = ?", now).
			Where("hash = ?", oldHash).Where("rotated_at IS NULL").
			Exec(ctx)
		if err != nil {
			return fmt.Errorf("rotate refresh token: %w", err)
		}
		var tok models.RefreshToken
		if err := tx.NewSelect().Model(&tok).Where("hash = ?", oldHash).Scan(ctx); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return ErrNotFound
			}
			return fmt.Errorf("select refresh token: %w", err)
		}
		if err := tx.NewSelect().Model(&s).Where("id = ?", tok.SessionID).Scan(ctx); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return ErrSessionEnded
			}
			return fmt.Errorf("select session: %w", err)
		}
		// The user's row before the session's: RevokeUser's order.
		u, err := lockUser(ctx, tx, s.UserID)
		if errors.Is(err, ErrNotFound) {
			return ErrSessionEnded
		}
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			reused = true
			return revoke(ctx, tx, []string{s.ID}, now, revocationTTL)
		}
		// The session is read again under the user's lock: RevokeUser may
		// have ended it since the read above.
		if err := tx.NewSelect().Model(&s).Where("id = ?", tok.SessionID).Scan(ctx); err != nil {
			return fmt.Errorf("select session: %w", err)
		}
		if !s.RevokedAt.IsZero() || !now.Before(s.ExpiresAt) || !u.Active {
			return ErrSessionEnded
		}
		if _, err := tx.NewInsert().Model(&models.RefreshToken{Hash: newHash, SessionID: s.ID, CreatedAt: now}).Exec(ctx); err != nil {
			return fmt.Errorf("insert refresh token: %w", err)
		}
		return sign(&s, u)
	})
	switch {
	case err != nil:
		return nil, err
	case reused:
		return &s, ErrReused
	}
	return &s, nil
}

// SessionOf returns the session of the refresh token with hash, or
// ErrNotFound.
func (r *Sessions) SessionOf(ctx context.Context, hash string) (*models.Session, error) {
	s := new(models.Session)
	err := r.db.NewSelect().Model(s).
		Where("id = (SELECT session_id FROM refresh_tokens WHERE hash = ?)", hash).
		Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("select session of refresh token: %w", err)
	}
	return s, nil
}

// Revoke ends the sessions with the ids: it marks them revoked and keeps a
// revocation record of each for ttl, the longest an access token of theirs
// can still be valid. On PostgreSQL every instance is told through
// RevokedChannel when the transaction commits.
func (r *Sessions) Revoke(ctx context.Context, ids []string, now time.Time, ttl time.Duration) error {
	if len(ids) == 0 {
		return nil
	}
	return r.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return revoke(ctx, tx, ids, now, ttl)
	})
}

// Active returns a page of the user's sessions that are neither revoked
// nor expired at now, the newest first.
func (r *Sessions) Active(ctx context.Context, userID int64, now time.Time, p paging.Paging) (paging.Page[models.ActiveSession], error) {
	q := r.db.NewSelect().Model((*models.ActiveSession)(nil)).
		ColumnExpr("s.id, s.created_at, s.address, s.user_agent").
		ColumnExpr("(SELECT MAX(rt.created_at) FROM refresh_tokens AS rt WHERE rt.session_id = s.id) AS last_used_at").
		Where("s.user_id = ?", userID).Where("s.revoked_at IS NULL").Where("s.expires_at > ?", now).
		OrderExpr("s.created_at DESC, s.id")
	page, err := database.Paginate[models.ActiveSession](ctx, q, p, database.WithCount(database.CountExact))
	if err != nil {
		return page, fmt.Errorf("list sessions of user %d: %w", userID, err)
	}
	return page, nil
}

// RevokeOwn ends the session with the id as Revoke does, if it is an
// active session of the user; otherwise it is ErrNotFound.
func (r *Sessions) RevokeOwn(ctx context.Context, userID int64, id string, now time.Time, ttl time.Duration) error {
	return r.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		n, err := tx.NewSelect().Model((*models.Session)(nil)).
			Where("id = ?", id).Where("user_id = ?", userID).Where("revoked_at IS NULL").Where("expires_at > ?", now).
			Count(ctx)
		if err != nil {
			return fmt.Errorf("find session of user %d: %w", userID, err)
		}
		if n == 0 {
			return ErrNotFound
		}
		return revoke(ctx, tx, []string{id}, now, ttl)
	})
}

// RevokeUser ends every unrevoked session of the user, as Revoke does, and
// returns their ids. In the same transaction it raises the user's session
// epoch and sets when its sessions ended to now, its row locked first: a
// login that read the user before, or arrived before now, and stores its
// session after is refused (Begin), and one that stored it before has it
// ended here. A user that is gone has its sessions ended all the same.
func (r *Sessions) RevokeUser(ctx context.Context, userID int64, now time.Time, ttl time.Duration) ([]string, error) {
	var ids []string
	err := r.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		// Rounded up, so that a login that arrived at the same instant is
		// refused although the database keeps microseconds.
		ended := now.Truncate(time.Microsecond).Add(time.Microsecond)
		if _, err := tx.NewUpdate().Model((*models.User)(nil)).
			Set("session_epoch = session_epoch + 1").Set("sessions_ended_at = ?", ended).
			Where("id = ?", userID).
			Exec(ctx); err != nil {
			return fmt.Errorf("raise the session epoch of user %d: %w", userID, err)
		}
		if err := tx.NewSelect().Model((*models.Session)(nil)).Column("id").
			Where("user_id = ?", userID).Where("revoked_at IS NULL").
			Scan(ctx, &ids); err != nil {
			return fmt.Errorf("select sessions of user %d: %w", userID, err)
		}
		return revoke(ctx, tx, ids, now, ttl)
	})
	return ids, err
}

// revoke marks the sessions revoked, records their revocations and, on
// PostgreSQL, notifies RevokedChannel, all in tx.
func revoke(ctx context.Context, tx bun.Tx, ids []string, now time.Time, ttl time.Duration) error {
	if len(ids) == 0 {
		return nil
	}
	if _, err := tx.NewUpdate().Model((*models.Session)(nil)).
		Set("revoked_at = ?", now).
		Where("id IN (?)", bun.List(ids)).Where("revoked_at IS NULL").
		Exec(ctx); err != nil {
		return fmt.Errorf("revoke sessions: %w", err)
	}
	records := make([]models.Revocation, len(ids))
	for i, id := range ids {
		records[i] = models.Revocation{SessionID: id, ExpiresAt: now.Add(ttl)}
	}
	if _, err := tx.NewInsert().Model(&records).On("CONFLICT (session_id) DO NOTHING").Exec(ctx); err != nil {
		return fmt.Errorf("insert revocations: %w", err)
	}
	if tx.Dialect().Name() == dialect.PG {
		for _, id := range ids {
			if _, err := tx.ExecContext(ctx, "SELECT pg_notify(?, ?)", RevokedChannel, id); err != nil {
				return fmt.Errorf("notify revocation: %w", err)
			}
		}
	}
	return nil
}

// Revocations returns the revocation records unexpired at now.
func (r *Sessions) Revocations(ctx context.Context, now time.Time) ([]models.Revocation, error) {
	var out []models.Revocation
	if err := r.db.NewSelect().Model(&out).Where("expires_at > ?", now).Scan(ctx); err != nil {
		return nil, fmt.Errorf("select revocations: %w", err)
	}
	return out, nil
}

// Prune deletes what no longer matters at now: expired revocation records
// and sessions that expired or were revoked before the longest access
// token lifetime ago (their refresh tokens go with them).
func (r *Sessions) Prune(ctx context.Context, now time.Time, accessTTL time.Duration) error {
	if _, err := r.db.NewDelete().Model((*models.Revocation)(nil)).Where("expires_at <= ?", now).Exec(ctx); err != nil {
		return fmt.Errorf("prune revocations: %w", err)
	}
	old := now.Add(-accessTTL)
	var ids []string
	if err := r.db.NewSelect().Model((*models.Session)(nil)).Column("id").
		Where("expires_at <= ? OR revoked_at <= ?", old, old).Scan(ctx, &ids); err != nil {
		return fmt.Errorf("select ended sessions: %w", err)
	}
	if len(ids) == 0 {
		return nil
	}
	if _, err := r.db.NewDelete().Model((*models.RefreshToken)(nil)).Where("session_id IN (?)", bun.List(ids)).Exec(ctx); err != nil {
		return fmt.Errorf("prune refresh tokens: %w", err)
	}
	if _, err := r.db.NewDelete().Model((*models.Session)(nil)).Where("id IN (?)", bun.List(ids)).Exec(ctx); err != nil {
		return fmt.Errorf("prune sessions: %w", err)
	}
	return nil
}
