package router

import (
	"log/slog"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/trace"

	"github.com/asapjs/fiber-template/platform/idempotency"
	"github.com/asapjs/fiber-template/platform/paging"
	"github.com/asapjs/fiber-template/platform/problem"
	"github.com/asapjs/fiber-template/platform/token"
)

// APIDocs holds the documentation settings: the document's info, servers
// and the docs UI.
type APIDocs struct {
	// Name is the API title shown at the top of the docs UI.
	//
	// Optional. Default: Config.Name
	Name string
	// Version is copied to info.version of the document.
	//
	// Optional. Default: "1.0.0"
	Version string
	// Description is the API description text.
	//
	// Optional. Default: ""
	Description string
	// Scheme is the URL scheme of try-it-out requests, "http" or "https".
	// Only used together with Host.
	//
	// Optional. Default: "http"
	Scheme string
	// Host is the host of try-it-out requests, e.g. "api.example.com". When
	// empty the document's server is the base path relative to whatever host
	// served it, so a forged Host header can never leak into the document.
	//
	// Optional. Default: ""
	Host string
	// TokenURL is the token URL of the OAuth2 password flow (the tokenUrl of
	// the document's OAuthLogin scheme).
	//
	// Optional. Default: BasePath + "/auth/login"
	TokenURL string
	// LoginDescription describes the password flow of TokenURL: what its
	// user name and password are ("the username is the user's email"). The
	// docs UI's Authorize dialog shows it above the two boxes.
	//
	// Optional. Default: ""
	LoginDescription string
	// OpenIDConnectURL, when set, replaces the password flow of TokenURL:
	// the OAuthLogin scheme is openIdConnect with this discovery URL, so
	// the docs UI's Authorize logs in at the issuer (a resource server's).
	//
	// Optional. Default: ""
	OpenIDConnectURL string
	// UseAuth puts the docs UI, its assets, spec.json and the developer tools
	// behind HTTP Basic authentication with Users.
	//
	// Optional. Default: false
	UseAuth bool
	// Users maps user names to passwords accepted by the docs Basic auth.
	//
	// Optional. Default: nil
	Users map[string]string
	// TagDescriptions describes the documentation tags by name, shown under
	// each tag's heading in the docs UI. A controller can describe its own
	// tag instead by implementing Describer; the two must not disagree.
	//
	// Optional. Default: nil
	TagDescriptions map[string]string
}

// CORS configures cross-origin resource sharing, which is always enabled.
type CORS struct {
	// AllowOrigins is a comma-separated list of allowed origins.
	//
	// Optional. Default: "*"
	AllowOrigins string
	// AllowHeaders is a comma-separated list of headers a preflight allows.
	//
	// Optional. Default: DefaultCORSAllowHeaders
	AllowHeaders string
	// ExposeHeaders is a comma-separated list of response headers a
	// browser lets a cross-origin script read, besides the safelisted
	// ones.
	//
	// Optional. Default: DefaultCORSExposeHeaders
	ExposeHeaders string
	// AllowCredentials allows cookies and credentials; it cannot be combined
	// with the "*" origin.
	//
	// Optional. Default: false
	AllowCredentials bool
	// MaxAge is how long a preflight answer may be cached, in seconds.
	//
	// Optional. Default: 0
	MaxAge int
}

// Defaults of CORS: every request header the routes read and every
// response header they answer with, so that a browser client can make
// conditional and idempotent requests, follow links and back off.
const (
	DefaultCORSAllowHeaders  = "Origin, Content-Type, Accept, Authorization, If-Match, If-None-Match, Idempotency-Key, X-Request-Id"
	DefaultCORSExposeHeaders = "ETag, Link, Location, Content-Location, Retry-After, Idempotent-Replayed, RateLimit-Limit, " +
		"RateLimit-Remaining, RateLimit-Reset, Deprecation, Sunset, Accept-Patch, WWW-Authenticate, X-Request-Id"
)

// Config configures the router plugin.
type Config struct {
	// Name is the application name, used in the root message and the docs.
	//
	// Optional. Default: "api"
	Name string
	// BasePath prefixes controller routes and the docs routes. "" mounts them
	// at the root. It must start with "/" and not end with one.
	//
	// Optional. Default: "" (root)
	BasePath string
	// Extensions are wired at start-up step 1; each is handed what it asks
	// for through the interfaces in extension.go.
	//
	// Optional. Default: nil
	Extensions []Extension
	// Middleware is user middleware registered after the built-in chain.
	//
	// Optional. Default: nil
	Middleware []fiber.Handler
	// MiddlewareErrors are the declared errors Middleware may return. As
	// Middleware runs on every route, every route documents them, once
	// declared here rather than on each route.
	//
	// Optional. Default: nil
	MiddlewareErrors []*problem.Error
	// Controllers are mounted at {BasePath}{controller base path}.
	//
	// Optional. Default: nil
	Controllers []Controller
	// APIDocs are the documentation settings.
	//
	// Optional. Default: see APIDocs
	APIDocs APIDocs
	// CORS configures cross-origin resource sharing.
	//
	// Optional. Default: see CORS
	CORS CORS
	// ProxyHeader is the header a trusted proxy appends the address of its
	// peer to. It is read only when the request comes from one of
	// TrustedProxies; see clientip.From for how the client is found in it.
	//
	// Optional. Default: "X-Forwarded-For"
	ProxyHeader string
	// TrustedProxies lists the proxies, as IP addresses or CIDR ranges
	// (e.g. "10.0.0.0/8"), whose ProxyHeader (and X-Forwarded-Host and
	// -Proto) is believed: from such a peer the client is the right-most
	// address of the header that is not itself a trusted proxy. Empty
	// trusts no proxy: the header is ignored and the TCP peer is the
	// client, so no client can choose the address its requests are
	// throttled and logged under. A bad entry fails New. Handlers read the
	// client with clientip.From (Fiber's c.IP() is the TCP peer).
	//
	// Optional. Default: nil (trust no proxy)
	TrustedProxies []string
	// BodyLimit is the largest request body accepted, JSON, URL-encoded or
	// multipart alike.
	//
	// Optional. Default: 200 MB
	BodyLimit int
	// MaxLimit is the largest paging limit a request may ask for; a
	// request that asks for none gets paging.DefaultLimit, or MaxLimit
	// when it is smaller, and the document says both.
	//
	// Optional. Default: 100
	MaxLimit int
	// JWTSecret is the HS256 secret that verifies tokens on auth routes. It is
	// required as soon as one route declares Auth.
	//
	// Optional. Default: nil
	JWTSecret []byte
	// TokenKeys sign nothing here but verify the tokens on auth routes
	// instead of JWTSecret: Ed25519 keys (their public parts served at
	// /.well-known/jwks.json, for other services) or an HS256 secret.
	//
	// Optional. Default: JWTSecret as an HS256 key
	TokenKeys *token.Keys
	// TokenMaxAge is the longest lifetime (exp - iat) of a token the
	// router accepts, past token.Leeway: the access token TTL.
	//
	// Optional. Default: 0 (any)
	TokenMaxAge time.Duration
	// TokenChecker, when set, checks the claims of every presented token
	// after its signature (issuer, audience, revocation), cached or not.
	//
	// Optional. Default: nil (the signature and exp decide)
	TokenChecker TokenChecker
	// TokenVerifier, when set, verifies the bearer tokens of auth routes
	// instead of TokenKeys and TokenChecker: a resource server's verifier
	// of another issuer's tokens. The router caches none of its answers.
	//
	// Optional. Default: nil (TokenKeys, or JWTSecret, and TokenChecker)
	TokenVerifier TokenVerifier
	// Realm is the realm of the Bearer challenges (WWW-Authenticate) of
	// the answers 401: the issuer a resource server trusts.
	//
	// Optional. Default: "api"
	Realm string
	// IssuerMetadata, when set, is served at
	// /.well-known/oauth-authorization-server (RFC 8414) and
	// /.well-known/openid-configuration: the service is an issuer other
	// services discover.
	//
	// Optional. Default: nil (neither is served)
	IssuerMetadata *token.Metadata
	// ProtectedResource, when set, is served at
	// /.well-known/oauth-protected-resource (RFC 9728), and the Bearer
	// challenges name it as resource_metadata.
	//
	// Optional. Default: nil
	ProtectedResource *token.ProtectedResource
	// TokenCacheSize bounds the cache of verified tokens; 0 uses the default
	// and a negative value turns the cache off.
	//
	// Optional. Default: 10000
	TokenCacheSize int
	// HealthTimeout bounds the database check of /health-check.
	//
	// Optional. Default: 2s
	HealthTimeout time.Duration
	// RequestTimeout is the deadline of every request's context
	// (Ctx.Context): database calls made with it give up once it passes,
	// and the request answers a 503 problem instead of hanging.
	//
	// Optional. Default: 10s
	RequestTimeout time.Duration
	// Idempotency keeps the answers of routes declared Idempotent, so
	// that a retry with the same Idempotency-Key gets the first answer. It
	// is required as soon as one route declares Idempotent.
	//
	// Optional. Default: nil
	Idempotency idempotency.Store
	// IdempotencyTTL is how long an Idempotency-Key and its answer are
	// kept.
	//
	// Optional. Default: 24h
	IdempotencyTTL time.Duration
	// IdempotencySecret keys the fingerprints (HMACs of the requests) that
	// routes declared Idempotent keep with their answers, through HKDF and a
	// label of its own. Every instance sharing Idempotency must share it,
	// and it must outlive key rotations: a retry whose fingerprint differs
	// from the first request's is a 422. At least 32 random bytes.
	//
	// Optional. Default: a key derived from the signing key of TokenKeys
	// (or JWTSecret), which changes when the keys rotate, so that an
	// instance that rotated refuses the retries of one that has not;
	// without either, a random key per route that dies with the process
	IdempotencySecret []byte
	// RetryAfter is the Retry-After of a 503 answer: a request that ran out
	// of time or met an outage of a dependency.
	//
	// Optional. Default: 5s
	RetryAfter time.Duration
	// ReadTimeout bounds reading a request's body, from the moment its
	// headers have arrived, so a slow client cannot hold a connection open
	// forever.
	//
	// Optional. Default: 60s
	ReadTimeout time.Duration
	// ReadHeaderTimeout bounds reading a request's line and headers, from
	// the connection's accept or, on a kept-alive connection, from the
	// request's first byte: a client that opens connections and sends
	// part of a request holds each for this long at most.
	//
	// Optional. Default: 10s, and never more than ReadTimeout
	ReadHeaderTimeout time.Duration
	// ReadBufferSize bounds the request line and headers, in bytes: a
	// request over it is a 431 problem, which every operation documents.
	// It leaves room for a 512-character cursor and a bearer token.
	//
	// Optional. Default: 8192
	ReadBufferSize int
	// WriteTimeout bounds writing a response.
	//
	// Optional. Default: 60s
	WriteTimeout time.Duration
	// IdleTimeout bounds how long a keep-alive connection waits for the
	// next request.
	//
	// Optional. Default: 120s
	IdleTimeout time.Duration
	// Metrics, when set, gets the request metrics (count and latency by
	// method, route template and status; requests in flight) and is served
	// at GET /metrics, never under BasePath and behind the docs Basic auth
	// when it is on. Register the Go, process and database collectors in it
	// too.
	//
	// Optional. Default: nil (no metrics)
	Metrics *prometheus.Registry
	// MetricsElsewhere keeps GET /metrics off the router's port: the
	// request metrics still go to Metrics, and the caller serves it on a
	// listener of its own that the public port cannot reach (cmd/api's
	// METRICS_ADDR).
	//
	// Optional. Default: false (GET /metrics on the router's port)
	MetricsElsewhere bool
	// TracerProvider, when set, gets a server span per request, named by
	// the route template, continuing the trace of an incoming W3C
	// traceparent (see Propagator); the request's context carries the span,
	// so database queries made with it are its children, and the request
	// log line has its trace_id.
	//
	// Optional. Default: nil (no spans)
	TracerProvider trace.TracerProvider
	// LogRequests logs one line per request at info level: method, path,
	// status, duration_ms and request id (and trace_id when the request is
	// traced).
	//
	// Optional. Default: false
	LogRequests bool
	// Production marks a production deployment. It turns off the developer
	// tools that change the database: GET {BasePath}/sync answers 404.
	//
	// Optional. Default: false
	Production bool
	// EnableSyncInProduction mounts GET {BasePath}/sync even when Production
	// is set. The docs Basic auth still guards it when APIDocs.UseAuth is on.
	//
	// Optional. Default: false
	EnableSyncInProduction bool
	// Logger receives start-up warnings and the errors behind 5xx answers.
	//
	// Optional. Default: slog.Default()
	Logger *slog.Logger
}

// Defaults of the router configuration.
const (
	defaultName           = "api"
	defaultBodyLimit      = 200 * 1024 * 1024
	defaultTokenCacheSize = 10000
	defaultHealthTimeout  = 2 * time.Second
	// DefaultRequestTimeout is the RequestTimeout of a Config that leaves
	// it zero.
	DefaultRequestTimeout = 10 * time.Second
	defaultRetryAfter     = 5 * time.Second
	defaultIdempotencyTTL = 24 * time.Hour
	defaultReadTimeout    = 60 * time.Second
	defaultWriteTimeout   = 60 * time.Second
	defaultReadBufferSize = 8192
	defaultIdleTimeout    = 120 * time.Second
)

// DefaultReadHeaderTimeout is the ReadHeaderTimeout of a Config that
// leaves it zero.
const DefaultReadHeaderTimeout = 10 * time.Second

// configDefault fills the zero fields of cfg with their defaults.
func configDefault(cfg Config) Config {
	if cfg.Name == "" {
		cfg.Name = defaultName
	}
	if cfg.APIDocs.Name == "" {
		cfg.APIDocs.Name = cfg.Name
	}
	if cfg.APIDocs.Version == "" {
		cfg.APIDocs.Version = "1.0.0"
	}
	if cfg.APIDocs.Scheme == "" {
		cfg.APIDocs.Scheme = "http"
	}
	if cfg.APIDocs.TokenURL == "" {
		cfg.APIDocs.TokenURL = cfg.BasePath + "/auth/login"
	}
	if cfg.Realm == "" {
		cfg.Realm = "api"
	}
	if cfg.CORS.AllowOrigins == "" {
		cfg.CORS.AllowOrigins = "*"
	}
	if cfg.CORS.AllowHeaders == "" {
		cfg.CORS.AllowHeaders = DefaultCORSAllowHeaders
	}
	if cfg.CORS.ExposeHeaders == "" {
		cfg.CORS.ExposeHeaders = DefaultCORSExposeHeaders
	}
	if cfg.ProxyHeader == "" {
		cfg.ProxyHeader = fiber.HeaderXForwardedFor
	}
	if cfg.BodyLimit <= 0 {
		cfg.BodyLimit = defaultBodyLimit
	}
	if cfg.MaxLimit <= 0 {
		cfg.MaxLimit = paging.DefaultMaxLimit
	}
	if cfg.TokenCacheSize == 0 {
		cfg.TokenCacheSize = defaultTokenCacheSize
	}
	if cfg.HealthTimeout <= 0 {
		cfg.HealthTimeout = defaultHealthTimeout
	}
	cfg.RequestTimeout = cfg.RequestDeadline()
	if cfg.IdempotencyTTL <= 0 {
		cfg.IdempotencyTTL = defaultIdempotencyTTL
	}
	if cfg.RetryAfter < time.Second {
		cfg.RetryAfter = defaultRetryAfter
	}
	if cfg.ReadTimeout <= 0 {
		cfg.ReadTimeout = defaultReadTimeout
	}
	if cfg.ReadHeaderTimeout <= 0 {
		cfg.ReadHeaderTimeout = DefaultReadHeaderTimeout
	}
	cfg.ReadHeaderTimeout = min(cfg.ReadHeaderTimeout, cfg.ReadTimeout)
	if cfg.WriteTimeout <= 0 {
		cfg.WriteTimeout = defaultWriteTimeout
	}
	if cfg.ReadBufferSize <= 0 {
		cfg.ReadBufferSize = defaultReadBufferSize
	}
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = defaultIdleTimeout
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	return cfg
}

// RequestDeadline is how long a request of a router made with c may take:
// RequestTimeout, or DefaultRequestTimeout when c leaves it unset. Work
// that must not outlive a request (a password check) is bounded by it.
func (c Config) RequestDeadline() time.Duration {
	if c.RequestTimeout <= 0 {
		return DefaultRequestTimeout
	}
	return c.RequestTimeout
}
