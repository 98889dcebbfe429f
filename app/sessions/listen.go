package sessions

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/asapjs/fiber-template/app/repositories"
	"github.com/asapjs/fiber-template/platform/database"
)

// pruneEvery is how often expired revocations and sessions are deleted.
const pruneEvery = 10 * time.Minute

// Start loads the unexpired revocations and keeps them current until ctx
// is done or the database is closed: on PostgreSQL a listener on
// repositories.RevokedChannel adds every revocation any instance commits,
// reloading all of them after a reconnect; on SQLite, one process, the
// revocations this instance makes are all there are. It also prunes what
// expired. A failing first load (tables not migrated yet) is logged, not
// fatal.
func (s *Service) Start(ctx context.Context) {
	if err := s.reload(ctx); err != nil {
		s.cfg.Logger.Warn("load revocations", slog.Any("error", err))
	}
	if database.DialectOfDB(s.db) == database.Postgres {
		go s.listen(ctx)
	}
	go func() {
		t := time.NewTicker(pruneEvery)
		defer t.Stop()
		s.maintain(ctx, t.C)
	}()
}

// reload adds every unexpired revocation record to the set.
func (s *Service) reload(ctx context.Context) error {
	records, err := s.repo.Revocations(database.OnPrimary(ctx), s.cfg.Now())
	if err != nil {
		return err
	}
	for _, r := range records {
		s.revoked.add(r.SessionID, r.ExpiresAt)
	}
	return nil
}

// listen holds one connection listening on the revocation channel,
// reconnecting after a failure with a pause of a second.
func (s *Service) listen(ctx context.Context) {
	for ctx.Err() == nil {
		err := s.listenOnce(ctx)
		if database.Closed(err) || ctx.Err() != nil {
			return
		}
		s.cfg.Logger.Warn("revocation listener lost its connection; reconnecting", slog.Any("error", err))
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
	}
}

// listenOnce listens on one connection until it fails.
func (s *Service) listenOnce(ctx context.Context) error {
	conn, err := s.db.DB.Conn(ctx)
	if err != nil {
		return fmt.Errorf("revocation listener: connect: %w", err)
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		sc, ok := dc.(interface{ Conn() *pgx.Conn })
		if !ok {
			return fmt.Errorf("revocation listener: driver connection is %T, not pgx", dc)
		}
		pc := sc.Conn()
		if _, err := pc.Exec(ctx, "LISTEN "+repositories.RevokedChannel); err != nil {
			return fmt.Errorf("revocation listener: listen: %w", err)
		}
		// Whatever was revoked while the connection was down.
		if err := s.reload(ctx); err != nil {
			s.cfg.Logger.Warn("reload revocations", slog.Any("error", err))
		}
		for {
			n, err := pc.WaitForNotification(ctx)
			if err != nil {
				// The connection is in an unknown state: not back to the pool.
				return errors.Join(fmt.Errorf("revocation listener: wait: %w", err), driver.ErrBadConn)
			}
			s.revoked.add(n.Payload, s.cfg.Now().Add(s.revocationTTL()))
		}
	})
}

// maintain prunes on every tick until ctx is done, tick is closed or the
// database is closed; Start ticks it every pruneEvery.
func (s *Service) maintain(ctx context.Context, tick <-chan time.Time) {
	for {
		select {
		case <-ctx.Done():
			return
		case _, ok := <-tick:
			if !ok {
				return
			}
		}
		if err := s.prune(ctx); err != nil {
			if database.Closed(err) {
				return
			}
			s.cfg.Logger.Warn("prune sessions", slog.Any("error", err))
		}
	}
}

// prune forgets the revocations expired by now, in memory and in the
// database, and deletes the sessions that ended before the longest access
// token lifetime ago.
func (s *Service) prune(ctx context.Context) error {
	now := s.cfg.Now()
	s.revoked.prune(now)
	return s.repo.Prune(ctx, now, s.revocationTTL())
}
