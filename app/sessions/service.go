package sessions

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/app/models"
	"github.com/asapjs/fiber-template/app/repositories"
	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/paging"
	"github.com/asapjs/fiber-template/platform/token"
)

// Config configures the sessions.
type Config struct {
	// Keys sign the access tokens with their first key; the router
	// verifies them with the same keys.
	Keys *token.Keys
	// Issuer is the iss claim of the access tokens, checked on every
	// request.
	Issuer string
	// Audience is the aud claim of the access tokens, checked on every
	// request.
	Audience string
	// AccessTTL is the lifetime of an access token.
	AccessTTL time.Duration
	// RefreshTTL is the lifetime of a session and its refresh tokens.
	RefreshTTL time.Duration
	// Logger receives the listener's and the pruning's failures.
	Logger *slog.Logger
	// Now is the clock of the sessions: when they begin and expire, when
	// their revocations expire, and when those are pruned.
	//
	// Optional. Default: time.Now
	Now func() time.Time
}

// Errors a caller of Refresh branches on.
var (
	// ErrInvalidRefresh is an unknown, expired or revoked refresh token,
	// or one of a user who may no longer log in.
	ErrInvalidRefresh = errors.New("sessions: invalid refresh token")
	// ErrRefreshReused is a refresh token presented again after it was
	// rotated: its session is revoked.
	ErrRefreshReused = errors.New("sessions: refresh token reused")
)

// Token is a new pair: an access token and the refresh token continuing
// its session.
type Token struct {
	AccessToken  string
	RefreshToken string
	ExpiresIn    time.Duration
}

// Service issues, rotates and ends sessions, and tells the router which
// access tokens are revoked (it is a router.TokenChecker).
type Service struct {
	cfg      Config
	db       *bun.DB
	repo     *repositories.Sessions
	revoked  *revokedSet
	audience jwt.ClaimStrings
}

// New returns the sessions of the service on db. Start runs what keeps
// the revocations current.
func New(db *bun.DB, cfg Config) *Service {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Service{
		cfg:      cfg,
		db:       db,
		repo:     repositories.NewSessions(db),
		revoked:  newRevokedSet(),
		audience: jwt.ClaimStrings{cfg.Audience},
	}
}

// revocationTTL is how long a revocation must be remembered: as long as an
// access token of the session may be valid, with a minute for clock skew.
// No token lives longer: the router refuses one whose exp - iat exceeds
// the TTL (router.Config.TokenMaxAge), whatever TTL issued it.
func (s *Service) revocationTTL() time.Duration { return s.cfg.AccessTTL + time.Minute }

// ErrUserChanged is the answer of Begin when the user changed after the
// login read it: deleted, deactivated, its password changed or its
// sessions ended. The login must not begin a session.
var ErrUserChanged = repositories.ErrUserChanged

// Begin starts a session for u, as read before its password was checked
// for a login from client that arrived at began, and returns its first
// pair. If u changed since it was read in a way that ends sessions, or its
// sessions were ended after began, it is ErrUserChanged and no session
// begins (repositories.Sessions.Begin): a change that ends the user's
// sessions holds for every login in flight. The access token carries the
// role u has when the session is stored.
func (s *Service) Begin(ctx context.Context, u *models.User, client Client, began time.Time) (Token, error) {
	id, err := newSessionID()
	if err != nil {
		return Token{}, err
	}
	refresh, hash, err := newRefreshToken()
	if err != nil {
		return Token{}, err
	}
	now := s.cfg.Now()
	sess := &models.Session{
		ID: id, UserID: u.ID, CreatedAt: now, ExpiresAt: now.Add(s.cfg.RefreshTTL),
		Address: client.Address, UserAgent: truncateUTF8(client.UserAgent, userAgentMax),
	}
	var access string
	err = s.repo.Begin(database.OnPrimary(ctx), sess, hash, u, began, func(current *models.User) (err error) {
		access, err = s.sign(current, id, now)
		return err
	})
	switch {
	case errors.Is(err, repositories.ErrUserChanged):
		return Token{}, ErrUserChanged
	case err != nil:
		return Token{}, fmt.Errorf("begin session: %w", err)
	}
	return Token{AccessToken: access, RefreshToken: refresh, ExpiresIn: s.cfg.AccessTTL}, nil
}

// Refresh exchanges a refresh token for a new pair of the same session;
// the presented token stops working. A token presented again after its
// exchange is ErrRefreshReused and ends the session (RFC 9700 §4.14.2).
func (s *Service) Refresh(ctx context.Context, refresh string) (Token, error) {
	ctx = database.OnPrimary(ctx)
	next, hash, err := newRefreshToken()
	if err != nil {
		return Token{}, err
	}
	now := s.cfg.Now()
	var access string
	sess, err := s.repo.Rotate(ctx, hashToken(refresh), hash, now, s.revocationTTL(), func(sess *models.Session, u *models.User) (err error) {
		access, err = s.sign(u, sess.ID, now)
		return err
	})
	switch {
	case errors.Is(err, repositories.ErrReused):
		s.revoked.add(sess.ID, now.Add(s.revocationTTL()))
		s.cfg.Logger.Warn("refresh token reused: session revoked", slog.String("sid", sess.ID), slog.Int64("user_id", sess.UserID))
		return Token{}, ErrRefreshReused
	case errors.Is(err, repositories.ErrNotFound), errors.Is(err, repositories.ErrSessionEnded):
		return Token{}, ErrInvalidRefresh
	case err != nil:
		return Token{}, fmt.Errorf("refresh session: %w", err)
	}
	return Token{AccessToken: access, RefreshToken: next, ExpiresIn: s.cfg.AccessTTL}, nil
}

// End ends the session of a refresh token (a logout). An unknown token
// ends nothing and is no error, so that a logout can be repeated.
func (s *Service) End(ctx context.Context, refresh string) error {
	ctx = database.OnPrimary(ctx)
	sess, err := s.repo.SessionOf(ctx, hashToken(refresh))
	if errors.Is(err, repositories.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	return s.revoke(ctx, []string{sess.ID})
}

// Active returns a page of the user's sessions that have not ended.
func (s *Service) Active(ctx context.Context, userID int64, p paging.Paging) (paging.Page[models.ActiveSession], error) {
	return s.repo.Active(database.OnPrimary(ctx), userID, s.cfg.Now(), p)
}

// EndOwn ends the session with the id if it is one the user has not ended
// yet, else it is repositories.ErrNotFound: its access tokens stop working
// on every instance, as after a logout.
func (s *Service) EndOwn(ctx context.Context, userID int64, id string) error {
	now := s.cfg.Now()
	if err := s.repo.RevokeOwn(database.OnPrimary(ctx), userID, id, now, s.revocationTTL()); err != nil {
		return err
	}
	s.revoked.add(id, now.Add(s.revocationTTL()))
	return nil
}

// EndUser ends every session of the user: after a delete, a deactivation,
// a role change or a password change, its access tokens stop working, and
// no login that read the user before can begin a session (Begin).
func (s *Service) EndUser(ctx context.Context, userID int64) error {
	now := s.cfg.Now()
	ids, err := s.repo.RevokeUser(database.OnPrimary(ctx), userID, now, s.revocationTTL())
	if err != nil {
		return fmt.Errorf("end sessions of user %d: %w", userID, err)
	}
	for _, id := range ids {
		s.revoked.add(id, now.Add(s.revocationTTL()))
	}
	return nil
}

func (s *Service) revoke(ctx context.Context, ids []string) error {
	now := s.cfg.Now()
	if err := s.repo.Revoke(ctx, ids, now, s.revocationTTL()); err != nil {
		return fmt.Errorf("end sessions: %w", err)
	}
	for _, id := range ids {
		s.revoked.add(id, now.Add(s.revocationTTL()))
	}
	return nil
}

// sign returns an access token of u in the session sid.
func (s *Service) sign(u *models.User, sid string, now time.Time) (string, error) {
	now = now.Truncate(time.Second)
	jti, err := newSessionID()
	if err != nil {
		return "", err
	}
	return s.cfg.Keys.Sign(&token.Claims{
		RegisteredClaims: jwt.RegisteredClaims{
			Subject:   strconv.FormatInt(u.ID, 10),
			Issuer:    s.cfg.Issuer,
			Audience:  s.audience,
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(s.cfg.AccessTTL)),
			ID:        jti,
		},
		Role:      u.Role,
		SessionID: sid,
	})
}

// errRevoked and its kin are why CheckToken refuses a token; the router
// answers all of them with one 401.
var (
	errRevoked  = errors.New("session revoked")
	errIssuer   = errors.New("wrong issuer")
	errAudience = errors.New("wrong audience")
	errNoSID    = errors.New("no session id")
)

// CheckToken refuses a token of another issuer or audience, without a
// session, or of a revoked session. It is router.Config.TokenChecker, run
// on every request with a token.
func (s *Service) CheckToken(c *token.Claims) error {
	switch {
	case c.Issuer != s.cfg.Issuer:
		return errIssuer
	case !slices.Contains(c.Audience, s.cfg.Audience):
		return errAudience
	case c.SessionID == "":
		return errNoSID
	case s.revoked.has(c.SessionID):
		return errRevoked
	}
	return nil
}

// Introspect returns the claims of raw when it is an access token the
// service accepts now, as the router would on a request: signed by one of
// the keys, current, of no longer a lifetime than AccessTTL, of this issuer
// and audience, and of a session that has not ended. Anything else is nil
// (RFC 7662's active: false).
func (s *Service) Introspect(raw string) *token.Claims {
	c, err := s.cfg.Keys.Verify(raw, s.cfg.AccessTTL)
	if err != nil || s.CheckToken(c) != nil {
		return nil
	}
	return c
}
