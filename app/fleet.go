package app

import (
	"context"
	"log/slog"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/app/controllers"
	"github.com/asapjs/fiber-template/app/models"
	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/router"
	"github.com/asapjs/fiber-template/platform/router/bunext"
	"github.com/asapjs/fiber-template/platform/token"
	"github.com/asapjs/fiber-template/platform/trust"
)

// newResourceServer builds the service as a resource server of
// opts.Trust's issuer only: /auth/me and the generated resources, without
// the accounts example (its controllers, sessions, throttles and bootstrap
// admin), whose routes are then 404 and absent from the document.
func newResourceServer(db *bun.DB, cfg router.Config, opts Options, list []database.Option, logger *slog.Logger) (*router.Router, error) {
	trustIssuer(&cfg, opts, opts.Trust)
	if cfg.Idempotency == nil {
		cfg.Idempotency = idempotencyKeys(opts.Context, db, cfg.IdempotencyTTL, logger)
	}
	var tables []any
	for _, m := range Models() {
		if !accountsModel(m) {
			tables = append(tables, m)
		}
	}
	cfg.Extensions = append(cfg.Extensions, bunext.New(database.NewCatalog(db, tables...)))
	mounted := []router.Controller{controllers.NewMe()}
	for _, c := range Controllers(Deps{DB: db, List: list}) {
		if !accountsController(c) {
			mounted = append(mounted, c)
		}
	}
	cfg.Controllers = append(mounted, cfg.Controllers...)
	return router.New(cfg)
}

// accountsController reports whether c is one of the accounts example's
// controllers, which a resource server leaves out.
func accountsController(c router.Controller) bool {
	switch c.(type) {
	case *controllers.Auth, *controllers.Users:
		return true
	}
	return false
}

// accountsModel reports whether m is one of the accounts example's models.
func accountsModel(m any) bool {
	switch m.(type) {
	case *models.User, *models.Session, *models.RefreshToken, *models.Revocation, *models.LoginFailure:
		return true
	}
	return false
}

// trustIssuer makes cfg verify tokens with v, name the trusted issuer as
// the realm of its challenges, point the document's login at it, and,
// with PublicURL, serve the RFC 9728 metadata that names it.
func trustIssuer(cfg *router.Config, opts Options, v router.TokenVerifier) {
	t := opts.Trust
	cfg.TokenVerifier = v
	cfg.Realm = t.Issuer()
	cfg.APIDocs.OpenIDConnectURL = t.MetadataURL
	if cfg.APIDocs.OpenIDConnectURL == "" {
		cfg.APIDocs.OpenIDConnectURL = t.Issuer() + token.OpenIDConfigurationPath
	}
	if opts.PublicURL != "" {
		cfg.ProtectedResource = &token.ProtectedResource{
			Resource: opts.PublicURL, AuthorizationServers: []string{t.Issuer()}, BearerMethods: []string{"header"},
		}
	}
}

// eitherIssuer verifies the tokens of the service's own issuer as the
// router would without Trust (its keys and its sessions' checks) and any
// other token with Trust: the accounts example kept beside another issuer.
type eitherIssuer struct {
	remote  *trust.Verifier
	issuer  string
	keys    *token.Keys
	maxAge  time.Duration
	checker router.TokenChecker
}

// VerifyToken routes raw by its unverified iss; each side verifies it in
// full, the iss included.
func (e *eitherIssuer) VerifyToken(ctx context.Context, raw string) (*token.Claims, error) {
	peek := jwt.MapClaims{}
	if _, _, err := jwt.NewParser().ParseUnverified(raw, peek); err == nil && peek["iss"] == e.issuer && e.issuer != e.remote.Issuer() {
		c, err := e.keys.Verify(raw, e.maxAge)
		if err != nil {
			return nil, err
		}
		if err := e.checker.CheckToken(c); err != nil {
			return nil, err
		}
		return c, nil
	}
	return e.remote.VerifyToken(ctx, raw)
}
