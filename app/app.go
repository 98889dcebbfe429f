package app

import (
	"context"
	"crypto/rand"
	"fmt"
	"log/slog"
	"time"

	"github.com/uptrace/bun"
	"golang.org/x/crypto/bcrypt"

	"github.com/asapjs/fiber-template/app/accounts"
	"github.com/asapjs/fiber-template/app/controllers"
	"github.com/asapjs/fiber-template/app/models"
	"github.com/asapjs/fiber-template/app/repositories"
	"github.com/asapjs/fiber-template/app/sessions"
	"github.com/asapjs/fiber-template/platform/basicauth"
	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/paging"
	"github.com/asapjs/fiber-template/platform/ratelimit"
	"github.com/asapjs/fiber-template/platform/router"
	"github.com/asapjs/fiber-template/platform/router/bunext"
	"github.com/asapjs/fiber-template/platform/token"
	"github.com/asapjs/fiber-template/platform/trust"
)

// Options tune the example service beyond the router's Config.
type Options struct {
	// BcryptCost is the bcrypt cost of password hashes, between
	// bcrypt.MinCost and bcrypt.MaxCost. Tests lower it to sign up many
	// users quickly.
	//
	// Optional. Default: bcrypt.DefaultCost
	BcryptCost int
	// AccessTokenTTL is how long an access token is valid.
	//
	// Optional. Default: 15m
	AccessTokenTTL time.Duration
	// RefreshTokenTTL is how long a session, and so its refresh tokens,
	// lasts after the login.
	//
	// Optional. Default: 720h
	RefreshTokenTTL time.Duration
	// Issuer and Audience are the iss and aud claims of the access tokens,
	// checked on every request.
	//
	// Optional. Default: PublicURL when set, else DefaultIssuer; and
	// DefaultAudience
	Issuer, Audience string
	// PublicURL is the service's own URL as others reach it, such as
	// https://accounts.example.com: the iss of its access tokens, and,
	// when it signs with Ed25519 keys, the base of the issuer metadata it
	// serves at /.well-known/openid-configuration and
	// /.well-known/oauth-authorization-server, so that other services can
	// trust it by that URL alone (docs/fleet.md).
	//
	// Optional. Default: "" (the iss is a name, and no metadata is served)
	PublicURL string
	// Admin, when set, is created at start-up as an active admin unless a
	// user with its email exists (an existing user is never changed).
	//
	// Optional. Default: nil
	Admin *NewUser
	// AuthRateLimit is how many requests a client address may send to the
	// public auth routes (sign-up, login, refresh, together) per minute; 0
	// is no limit. The address is clientip's canonical key of the client
	// (see router.Config.TrustedProxies), an IPv6 client counting by /64.
	//
	// Optional. Default: 0 (cmd/api sets AUTH_RATE_LIMIT, default 30)
	AuthRateLimit int
	// RateLimitStore keeps the AuthRateLimit counters; share one among
	// the instances of a deployment.
	//
	// Optional. Default: on PostgreSQL the counters in the database
	// (database.RateLimitCounters, table rate_limit_hits, swept every
	// minute while Context lasts), shared by every instance; on SQLite, one
	// process, in memory within an 8 MiB budget
	RateLimitStore ratelimit.Store
	// HashWait is how long a password hashing waits for one of the
	// hashing slots (GOMAXPROCS - 1, at least one) before the request is a
	// 503.
	//
	// Optional. Default: 1s
	HashWait time.Duration
	// Context bounds the background work: the revocation listener and the
	// pruning of expired sessions. Both also stop when db is closed.
	//
	// Optional. Default: context.Background()
	Context context.Context
	// CursorSecret signs the cursors of the list routes (next_cursor).
	//
	// Optional. Default: the router Config's JWTSecret, or without one a
	// secret derived from the signing key (token.Keys.Derive); either way the
	// key is derived from it with a label of its own (see
	// paging.NewCursors)
	CursorSecret []byte
	// Count is how the list routes count their total_elements.
	//
	// Optional. Default: database.CountAuto(database.DefaultCountBudget)
	Count database.CountStrategy
	// CountMaxAge is how long a list's count travels with its cursors
	// (see database.WithCountMaxAge); a negative age counts every page.
	//
	// Optional. Default: database.DefaultCountMaxAge
	CountMaxAge time.Duration
	// Reads routes the lists' counts and estimates where their pages go:
	// the *database.Replicas that db resolves reads with, when it has
	// read replicas.
	//
	// Optional. Default: none (the estimate runs on db's primary)
	Reads bun.ConnResolver
	// Trust, when set, makes the service a resource server of another
	// issuer (docs/fleet.md): every auth route verifies that issuer's
	// tokens with it, the document's login points at the issuer, and the
	// accounts example (sign-up, login, users, sessions, and their
	// tables' use) is not mounted unless KeepAccounts.
	//
	// Optional. Default: nil (the service issues its own tokens)
	Trust *trust.Verifier
	// KeepAccounts keeps the accounts example beside Trust: tokens of the
	// service's own issuer (Issuer) are verified as without Trust, the
	// others by Trust.
	//
	// Optional. Default: false
	KeepAccounts bool
	// IntrospectionClients are the services that may ask POST
	// {base}/auth/introspect whether an access token is active (RFC 7662),
	// as HTTP Basic credentials: secrets by client id.
	//
	// Optional. Default: none (every introspection request is a 401)
	IntrospectionClients map[string]string
}

// Defaults of the Options.
const (
	// DefaultAccessTokenTTL is the lifetime of an access token.
	DefaultAccessTokenTTL = 15 * time.Minute
	// DefaultRefreshTokenTTL is the lifetime of a session.
	DefaultRefreshTokenTTL = 720 * time.Hour
	// DefaultIssuer is the iss claim of the access tokens.
	DefaultIssuer = "fiber-template"
	// DefaultAudience is the aud claim of the access tokens.
	DefaultAudience = "fiber-template-api"
	// DefaultHashWait bounds the wait for a password hashing slot.
	DefaultHashWait = time.Second
)

func optionsDefault(o Options) Options {
	if o.BcryptCost == 0 {
		o.BcryptCost = bcrypt.DefaultCost
	}
	if o.AccessTokenTTL <= 0 {
		o.AccessTokenTTL = DefaultAccessTokenTTL
	}
	if o.RefreshTokenTTL <= 0 {
		o.RefreshTokenTTL = DefaultRefreshTokenTTL
	}
	if o.Issuer == "" {
		o.Issuer = DefaultIssuer
		if o.PublicURL != "" {
			o.Issuer = o.PublicURL
		}
	}
	if o.Audience == "" {
		o.Audience = DefaultAudience
	}
	if o.HashWait <= 0 {
		o.HashWait = DefaultHashWait
	}
	if o.Context == nil {
		o.Context = context.Background()
	}
	return o
}

// Models are the Bun models of the example service, in the order their
// tables are created.
func Models() []any {
	return []any{(*models.User)(nil), (*models.Session)(nil), (*models.RefreshToken)(nil), (*models.Revocation)(nil), (*models.LoginFailure)(nil)}
}

// New builds the service on db with the default Options: the database
// extension with the models of the example service, and its controllers,
// on top of cfg. The tables must exist; see package migrations.
func New(db *bun.DB, cfg router.Config) (*router.Router, error) {
	return NewWithOptions(db, cfg, Options{})
}

// NewWithOptions is New with Options. cfg.TokenKeys sign the tokens of the
// login and verify them on the other routes: Ed25519 keys, whose public
// parts /.well-known/jwks.json serves, or else cfg.JWTSecret as an HS256
// key; when both are empty a random secret is made up, so tokens do not
// outlive the process. cfg.TokenMaxAge is the access token TTL.
func NewWithOptions(db *bun.DB, cfg router.Config, opts Options) (*router.Router, error) {
	opts = optionsDefault(opts)
	if cfg.TokenKeys == nil && len(cfg.JWTSecret) == 0 {
		cfg.JWTSecret = make([]byte, 32)
		if _, err := rand.Read(cfg.JWTSecret); err != nil {
			return nil, fmt.Errorf("app: generate JWT secret: %w", err)
		}
	}
	if cfg.TokenKeys == nil {
		keys, err := token.NewSecret(cfg.JWTSecret)
		if err != nil {
			return nil, fmt.Errorf("app: %w", err)
		}
		cfg.TokenKeys = keys
	}
	cfg.TokenMaxAge = opts.AccessTokenTTL
	if cfg.APIDocs.LoginDescription == "" {
		// The login reads the email as the password flow's username.
		cfg.APIDocs.LoginDescription = "Log in as a user: the username is the user's email address."
	}
	if opts.PublicURL != "" && cfg.TokenKeys.Published() {
		cfg.IssuerMetadata = issuerMetadata(opts, cfg.BasePath)
	}
	passwords, err := accounts.NewPasswords(opts.BcryptCost, opts.HashWait)
	if err != nil {
		return nil, fmt.Errorf("app: %w", err)
	}
	cursorSecret := opts.CursorSecret
	switch {
	case len(cursorSecret) > 0:
	case len(cfg.JWTSecret) > 0:
		cursorSecret = cfg.JWTSecret
	default:
		cursorSecret = cfg.TokenKeys.Derive("cursors")
	}
	cursors, err := paging.NewCursors(cursorSecret)
	if err != nil {
		return nil, fmt.Errorf("app: %w", err)
	}
	// Every list pages by the same cursors and counts the same way.
	list := []database.Option{database.WithCursors(cursors), database.WithCount(opts.Count), database.WithReads(opts.Reads)}
	if opts.CountMaxAge != 0 {
		list = append(list, database.WithCountMaxAge(opts.CountMaxAge))
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.Default()
	}
	if opts.Trust != nil && !opts.KeepAccounts {
		return newResourceServer(db, cfg, opts, list, logger)
	}
	users := repositories.NewUsers(db, list...)
	if opts.Admin != nil {
		if err := ensureAdmin(opts.Context, users, passwords, *opts.Admin, logger); err != nil {
			return nil, fmt.Errorf("app: bootstrap admin: %w", err)
		}
	}
	sess := sessions.New(db, sessions.Config{
		Keys:       cfg.TokenKeys,
		Issuer:     opts.Issuer,
		Audience:   opts.Audience,
		AccessTTL:  opts.AccessTokenTTL,
		RefreshTTL: opts.RefreshTokenTTL,
		Logger:     cfg.Logger,
	})
	sess.Start(opts.Context)
	cfg.TokenChecker = sess
	if opts.Trust != nil {
		trustIssuer(&cfg, opts, &eitherIssuer{remote: opts.Trust, issuer: opts.Issuer, keys: cfg.TokenKeys, maxAge: cfg.TokenMaxAge, checker: sess})
	}
	// The auth rate limit is middleware of the public auth routes
	// themselves, not of path strings: any spelling that reaches them is
	// counted.
	var authLimit *ratelimit.Limiter
	if opts.AuthRateLimit > 0 {
		store := opts.RateLimitStore
		if store == nil {
			store = rateLimitStore(opts.Context, db, logger)
		}
		authLimit = authRateLimit(opts.AuthRateLimit, store, logger)
	}

	if cfg.Idempotency == nil {
		cfg.Idempotency = idempotencyKeys(opts.Context, db, cfg.IdempotencyTTL, logger)
	}

	// No login's password check outlives its request's deadline.
	throttle := accounts.NewLoginThrottle(repositories.NewLoginFailures(db), cfg.RequestDeadline())
	go every(opts.Context, loginFailurePruneEvery, "prune login failures", logger, throttle.Prune)

	cfg.Extensions = append(cfg.Extensions, bunext.New(database.NewCatalog(db, Models()...)))
	// The service's controllers come first; the caller's are kept after.
	cfg.Controllers = append(append([]router.Controller{controllers.NewMe()}, Controllers(Deps{
		DB: db, List: list, Users: users, Passwords: passwords, Sessions: sess, Throttle: throttle, AuthLimit: authLimit,
		Clients: basicauth.New(opts.IntrospectionClients),
	})...), cfg.Controllers...)
	return router.New(cfg)
}

// Deps are what the service's controllers are built on.
type Deps struct {
	DB *bun.DB
	// List are the options every list repository takes: the cursors it
	// signs and the count strategy.
	List      []database.Option
	Users     *repositories.Users
	Passwords *accounts.Passwords
	Sessions  *sessions.Service
	Throttle  *accounts.LoginThrottle
	// AuthLimit is the rate limit of the public auth routes and of email
	// changes; nil when there is none.
	AuthLimit *ratelimit.Limiter
	// Clients are the services that may introspect tokens.
	Clients router.Clients
}

// Controllers are the service's controllers, built on d, in the order
// they are mounted. A generated resource adds its line at the end (go run
// ./cmd/starter resource), and remove takes it out.
func Controllers(d Deps) []router.Controller {
	return []router.Controller{
		controllers.NewAuth(d.Users, d.Passwords, d.Sessions, d.Throttle, d.Clients, d.AuthLimit),
		controllers.NewUsers(d.Users, d.Passwords, d.Sessions, d.AuthLimit),
	}
}
