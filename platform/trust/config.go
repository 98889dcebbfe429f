package trust

import (
	"log/slog"
	"net/http"
	"time"
)

// Config configures a Verifier.
type Config struct {
	// Issuer is the issuer's identifier, the iss every token must carry
	// exactly, such as https://accounts.example.com or a Keycloak realm's
	// https://sso.example.com/realms/acme. Unless JWKSURL is set, its
	// metadata is discovered at Issuer + /.well-known/openid-configuration,
	// then at the RFC 8414 place.
	//
	// Required.
	Issuer string
	// JWKSURL, when set, is the issuer's JWK Set, and nothing is
	// discovered.
	//
	// Optional. Default: the metadata's jwks_uri
	JWKSURL string
	// Audiences are the aud values accepted: a token must name one.
	//
	// Required.
	Audiences []string
	// RolesClaim is where the caller's roles are: a claim name, or a
	// dotted path into nested objects (realm_access.roles). A list of
	// strings is the roles; a string is split on spaces (a scope).
	//
	// Optional. Default: "role"
	RolesClaim string
	// MinRefresh is the least time between two fetches of the JWK Set:
	// a token naming an unknown kid fetches it again at most this often.
	//
	// Optional. Default: DefaultMinRefresh
	MinRefresh time.Duration
	// Introspection, when its URL is set, asks the issuer about every
	// token (RFC 7662), at most once per Introspection.Cache per token.
	//
	// Optional. Default: none
	Introspection Introspection
	// Client makes the requests to the issuer. Redirects are never
	// followed.
	//
	// Optional. Default: a client with a 5s timeout
	Client *http.Client
	// Logger logs the failures to reach the issuer.
	//
	// Optional. Default: slog.Default()
	Logger *slog.Logger
	// Now is the clock.
	//
	// Optional. Default: time.Now
	Now func() time.Time
}

// Introspection configures the questions to the issuer about tokens.
type Introspection struct {
	// URL is the issuer's introspection endpoint.
	URL string
	// ClientID and ClientSecret are the service's HTTP Basic credentials
	// there (client_secret_basic).
	ClientID, ClientSecret string
	// Cache is how long an answer about a token is kept.
	//
	// Optional. Default: DefaultIntrospectionCache
	Cache time.Duration
	// FailOpen accepts a token the issuer could not be asked about (down,
	// or an answer that is not one); by default it is refused.
	FailOpen bool
}

// Defaults of the Config.
const (
	DefaultMinRefresh         = time.Minute
	DefaultIntrospectionCache = 30 * time.Second
	DefaultRolesClaim         = "role"
	// defaultKeysMaxAge is how long a JWK Set served without a
	// Cache-Control max-age is kept before it is fetched again.
	defaultKeysMaxAge = 5 * time.Minute
	// maxKeysAge bounds a max-age: a day at most.
	maxKeysAge = 24 * time.Hour
	// requestTimeout bounds each request to the issuer.
	requestTimeout = 5 * time.Second
	// maxBody bounds what is read of an answer of the issuer.
	maxBody = 1 << 20
)

func configDefault(cfg Config) Config {
	if cfg.RolesClaim == "" {
		cfg.RolesClaim = DefaultRolesClaim
	}
	if cfg.MinRefresh <= 0 {
		cfg.MinRefresh = DefaultMinRefresh
	}
	if cfg.Introspection.Cache <= 0 {
		cfg.Introspection.Cache = DefaultIntrospectionCache
	}
	if cfg.Client == nil {
		cfg.Client = &http.Client{Timeout: requestTimeout}
	}
	// A redirect is a URL nobody configured.
	client := *cfg.Client
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	cfg.Client = &client
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return cfg
}
