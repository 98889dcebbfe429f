package main

import (
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/asapjs/fiber-template/platform/clientip"
	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/token"
)

// config is the service configuration, read from the environment only here.
type config struct {
	Host        string
	Port        int
	BasePath    string
	DatabaseURL string
	// DatabaseReplicaURLs are read replicas of DatabaseURL, which take the
	// reads outside transactions.
	DatabaseReplicaURLs []string
	JWTSecret           []byte
	// TokenKeys sign and verify the access tokens when set: the Ed25519
	// keys of JWT_SIGNING_KEYS or JWT_SIGNING_KEYS_FILE (or, in
	// development without JWT_SECRET, devKeysFile).
	TokenKeys *token.Keys
	// signingKeysFile is JWT_SIGNING_KEYS_FILE, read again by keys rotate.
	signingKeysFile string
	DocsAuth        bool
	DocsUsers       map[string]string
	Env             string
	LogLevel        slog.Level
	// MigrateOnStart applies pending migrations before serving.
	MigrateOnStart bool
	// MigrateLockTimeout bounds the wait for the migration lock while
	// another instance migrates.
	MigrateLockTimeout time.Duration
	// LogRequests writes one log line per request.
	LogRequests bool
	// PagingCursorSecret signs the cursors of list routes, and
	// IdempotencySecret keys the fingerprints of idempotent requests: both
	// shared by every instance and untouched by a key rotation
	// (loadStableSecrets). In development they may be empty until serve
	// fills them (devStableSecrets).
	PagingCursorSecret, IdempotencySecret []byte
	// PagingCountBudget is how long a list may count its total exactly
	// before it answers an estimate.
	PagingCountBudget time.Duration
	// PagingCountMaxAge is how long a list's count travels with its
	// cursors; 0 counts every page.
	PagingCountMaxAge time.Duration
	// RequestTimeout is the deadline of every request's context.
	RequestTimeout time.Duration
	// IdempotencyTTL is how long an Idempotency-Key's answer is kept.
	IdempotencyTTL time.Duration
	// TrustedProxies are the proxies (addresses or CIDR ranges) whose
	// X-Forwarded-For names the client; empty trusts none.
	TrustedProxies []string
	// Pool bounds the PostgreSQL pools: connections, connect and
	// statement timeouts.
	Pool database.Pool
	// Metrics serves GET /metrics.
	Metrics bool
	// MetricsAddr, when set, serves GET /metrics on a listener of its own
	// at this host:port instead of the service's port.
	MetricsAddr string
	// ShutdownDelay is how long /readyz answers 503 before the listener
	// closes, so load balancers stop sending requests first.
	ShutdownDelay time.Duration
	// ShutdownTimeout bounds the wait for requests in flight once the
	// listener is closed.
	ShutdownTimeout time.Duration
	// Accounts are the settings of sessions, throttling and the bootstrap
	// admin.
	Accounts accounts
	// Conns bound the connections to the service's port.
	Conns conns
	// Fleet are the settings of a service among others: its public URL
	// as an issuer, or the issuer it trusts as a resource server.
	Fleet fleet
	// generatedSecret is true when JWTSecret was made up for this run.
	generatedSecret bool
	// devKeys is true when the development signing keys are to be used.
	devKeys bool
}

// loadConfig reads the configuration through lookupEnv (os.LookupEnv),
// applying defaults and refusing what cannot run.
func loadConfig(lookupEnv func(string) (string, bool)) (config, error) {
	getenv := func(key string) string { v, _ := lookupEnv(key); return v }
	cfg := config{
		Host:        envOr(lookupEnv, "HOST", "0.0.0.0"),
		BasePath:    "/api",
		DatabaseURL: getenv("DATABASE_URL"),
		Env:         envOr(lookupEnv, "APP_ENV", "development"),
	}
	// An empty BASE_PATH is meaningful: routes at the root.
	if v, ok := lookupEnv("BASE_PATH"); ok {
		cfg.BasePath = strings.TrimRight(v, "/")
	}
	port, err := strconv.Atoi(envOr(lookupEnv, "PORT", "8080"))
	if err != nil || port < 0 || port > 65535 {
		return cfg, fmt.Errorf("PORT must be a port number, got %q", getenv("PORT"))
	}
	cfg.Port = port
	if cfg.Env != "development" && cfg.Env != "production" {
		return cfg, fmt.Errorf("APP_ENV must be development or production, got %q", cfg.Env)
	}
	if err := cfg.LogLevel.UnmarshalText([]byte(envOr(lookupEnv, "LOG_LEVEL", "info"))); err != nil {
		return cfg, fmt.Errorf("LOG_LEVEL must be debug, info, warn or error: %w", err)
	}
	if cfg.DocsAuth, err = parseBool(envOr(lookupEnv, "DOCS_AUTH", "false")); err != nil {
		return cfg, fmt.Errorf("DOCS_AUTH: %w", err)
	}
	if cfg.MigrateOnStart, err = parseBool(envOr(lookupEnv, "MIGRATE_ON_START", "true")); err != nil {
		return cfg, fmt.Errorf("MIGRATE_ON_START: %w", err)
	}
	lockTimeout := envOr(lookupEnv, "MIGRATE_LOCK_TIMEOUT", "60s")
	if cfg.MigrateLockTimeout, err = time.ParseDuration(lockTimeout); err != nil || cfg.MigrateLockTimeout <= 0 {
		return cfg, fmt.Errorf("MIGRATE_LOCK_TIMEOUT must be a positive duration such as 60s or 2m, got %q", lockTimeout)
	}
	cfg.DatabaseReplicaURLs = splitList(getenv("DATABASE_REPLICA_URLS"))
	cfg.TrustedProxies = splitList(getenv("TRUSTED_PROXIES"))
	if _, err := clientip.New(clientip.Config{TrustedProxies: cfg.TrustedProxies}); err != nil {
		return cfg, fmt.Errorf("TRUSTED_PROXIES must be comma-separated IP addresses or CIDR ranges such as 10.0.0.0/8: %w", err)
	}
	if cfg.LogRequests, err = parseBool(envOr(lookupEnv, "LOG_REQUESTS", "true")); err != nil {
		return cfg, fmt.Errorf("LOG_REQUESTS: %w", err)
	}
	budget := envOr(lookupEnv, "PAGING_COUNT_BUDGET", "25ms")
	if cfg.PagingCountBudget, err = time.ParseDuration(budget); err != nil || cfg.PagingCountBudget < 0 {
		return cfg, fmt.Errorf("PAGING_COUNT_BUDGET must be a duration such as 25ms, or 0 to never count exactly, got %q", budget)
	}
	maxAge := envOr(lookupEnv, "PAGING_COUNT_MAX_AGE", "1m")
	if cfg.PagingCountMaxAge, err = time.ParseDuration(maxAge); err != nil || cfg.PagingCountMaxAge < 0 {
		return cfg, fmt.Errorf("PAGING_COUNT_MAX_AGE must be a duration such as 1m, or 0 to count every page, got %q", maxAge)
	}
	if err := loadLimits(&cfg, lookupEnv); err != nil {
		return cfg, err
	}
	if err := loadConns(&cfg, lookupEnv); err != nil {
		return cfg, err
	}
	if cfg.DocsUsers, err = parseUsers(getenv("DOCS_USERS")); err != nil {
		return cfg, fmt.Errorf("DOCS_USERS: %w", err)
	}
	if cfg.DocsAuth && len(cfg.DocsUsers) == 0 {
		return cfg, errors.New("DOCS_AUTH=true needs DOCS_USERS (user:pass,user2:pass2)")
	}
	if err := loadAccounts(&cfg, lookupEnv); err != nil {
		return cfg, err
	}
	if err := loadFleet(&cfg, lookupEnv); err != nil {
		return cfg, err
	}
	if err := loadTokenKeys(&cfg, getenv); err != nil {
		return cfg, err
	}
	return cfg, loadStableSecrets(&cfg, getenv)
}

// loadStableSecrets reads the secrets that key what every instance must
// agree on whichever key signs its tokens: the list cursors
// (PAGING_CURSOR_SECRET) and the idempotency fingerprints
// (IDEMPOTENCY_SECRET). Derived from the signing key, they would change
// with api keys rotate, and an instance that rotated would refuse the
// cursors and the retries of one that has not. Each one unset falls back to
// JWT_SECRET, which no rotation of the signing keys changes; in development
// without JWT_SECRET both are left for serve to fill. Production refuses to
// start with neither for either, or with one shorter than minJWTSecret.
func loadStableSecrets(cfg *config, getenv func(string) string) error {
	var missing []string
	for _, s := range []struct {
		name, value string
		to          *[]byte
	}{
		{"PAGING_CURSOR_SECRET", getenv("PAGING_CURSOR_SECRET"), &cfg.PagingCursorSecret},
		{"IDEMPOTENCY_SECRET", getenv("IDEMPOTENCY_SECRET"), &cfg.IdempotencySecret},
	} {
		switch {
		case s.value != "" && cfg.Env == "production" && len(s.value) < minJWTSecret:
			return fmt.Errorf("%s must have at least %d bytes when APP_ENV=production, got %d (make one with: openssl rand -base64 32)", s.name, minJWTSecret, len(s.value))
		case s.value != "":
			*s.to = []byte(s.value)
		case len(cfg.JWTSecret) > 0 && !cfg.generatedSecret:
			*s.to = cfg.JWTSecret
		case cfg.Env == "production":
			missing = append(missing, s.name)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	verb := " is"
	if len(missing) > 1 {
		verb = " are"
	}
	return fmt.Errorf("%s required when APP_ENV=production with JWT_SIGNING_KEYS and no JWT_SECRET: secrets of at least %d bytes that every instance shares and no key rotation changes (make each with: openssl rand -base64 32)",
		strings.Join(missing, " and ")+verb, minJWTSecret)
}

// loadTokenKeys reads what signs the access tokens: Ed25519 keys
// (JWT_SIGNING_KEYS or JWT_SIGNING_KEYS_FILE), an HS256 JWT_SECRET, or in
// development without either, the development keys (and a secret for the
// cursors). Production refuses to start with neither, or with a secret
// shorter than minJWTSecret.
func loadTokenKeys(cfg *config, getenv func(string) string) error {
	keys, file := getenv("JWT_SIGNING_KEYS"), getenv("JWT_SIGNING_KEYS_FILE")
	switch {
	case keys != "" && file != "":
		return errors.New("set JWT_SIGNING_KEYS or JWT_SIGNING_KEYS_FILE, not both")
	case file != "":
		data, err := os.ReadFile(file)
		if err != nil {
			return fmt.Errorf("JWT_SIGNING_KEYS_FILE: %w", err)
		}
		keys, cfg.signingKeysFile = string(data), file
	}
	if keys != "" {
		parsed, err := token.ParseKeys([]byte(keys))
		if err != nil {
			return fmt.Errorf("JWT_SIGNING_KEYS: %w (make a key with: api keys generate)", err)
		}
		cfg.TokenKeys = parsed
	}
	switch secret := getenv("JWT_SECRET"); {
	case secret != "" && cfg.Env == "production" && len(secret) < minJWTSecret:
		return fmt.Errorf("JWT_SECRET must have at least %d bytes when APP_ENV=production, got %d (make one with: openssl rand -base64 32)", minJWTSecret, len(secret))
	case secret != "":
		cfg.JWTSecret = []byte(secret)
	case cfg.TokenKeys != nil:
		// The cursors' secret comes from the signing key.
	case cfg.Fleet.resourceOnly() && cfg.Env == "production":
		// Nothing signs tokens; the stable secrets are required instead.
	case cfg.Env == "production":
		return errors.New("JWT_SIGNING_KEYS (or JWT_SIGNING_KEYS_FILE) or JWT_SECRET is required when APP_ENV=production")
	default:
		cfg.JWTSecret = make([]byte, 32)
		if _, err := rand.Read(cfg.JWTSecret); err != nil {
			return fmt.Errorf("generate JWT secret: %w", err)
		}
		cfg.generatedSecret, cfg.devKeys = true, !cfg.Fleet.resourceOnly()
	}
	return nil
}

// loadLimits reads the deadlines and the pool sizes.
func loadLimits(cfg *config, lookupEnv func(string) (string, bool)) error {
	var err error
	if cfg.RequestTimeout, err = positiveDuration("REQUEST_TIMEOUT", envOr(lookupEnv, "REQUEST_TIMEOUT", "10s")); err != nil {
		return err
	}
	if cfg.IdempotencyTTL, err = positiveDuration("IDEMPOTENCY_TTL", envOr(lookupEnv, "IDEMPOTENCY_TTL", "24h")); err != nil {
		return err
	}
	if cfg.Pool.StatementTimeout, err = positiveDuration("DB_STATEMENT_TIMEOUT", envOr(lookupEnv, "DB_STATEMENT_TIMEOUT", "10s")); err != nil {
		return err
	}
	if cfg.Pool.ConnectTimeout, err = positiveDuration("DB_CONNECT_TIMEOUT", envOr(lookupEnv, "DB_CONNECT_TIMEOUT", "5s")); err != nil {
		return err
	}
	if cfg.Pool.MaxOpenConns, err = positiveInt("DB_MAX_OPEN_CONNS", envOr(lookupEnv, "DB_MAX_OPEN_CONNS", "25")); err != nil {
		return err
	}
	if cfg.Pool.MaxIdleConns, err = positiveInt("DB_MAX_IDLE_CONNS", envOr(lookupEnv, "DB_MAX_IDLE_CONNS", strconv.Itoa(cfg.Pool.MaxOpenConns))); err != nil {
		return err
	}
	if cfg.Metrics, err = parseBool(envOr(lookupEnv, "METRICS", "true")); err != nil {
		return fmt.Errorf("METRICS: %w", err)
	}
	if cfg.MetricsAddr, err = metricsAddr(envOr(lookupEnv, "METRICS_ADDR", ""), cfg.Metrics); err != nil {
		return err
	}
	if cfg.ShutdownTimeout, err = positiveDuration("SHUTDOWN_TIMEOUT", envOr(lookupEnv, "SHUTDOWN_TIMEOUT", "15s")); err != nil {
		return err
	}
	delay := envOr(lookupEnv, "SHUTDOWN_DELAY", "0s")
	if cfg.ShutdownDelay, err = time.ParseDuration(delay); err != nil || cfg.ShutdownDelay < 0 {
		return fmt.Errorf("SHUTDOWN_DELAY must be a duration such as 5s, or 0, got %q", delay)
	}
	if cfg.Pool.MaxIdleConns > cfg.Pool.MaxOpenConns {
		return fmt.Errorf("DB_MAX_IDLE_CONNS (%d) must not exceed DB_MAX_OPEN_CONNS (%d)", cfg.Pool.MaxIdleConns, cfg.Pool.MaxOpenConns)
	}
	return nil
}

// metricsAddr checks METRICS_ADDR: empty, or a host:port (the host may be
// empty, for every interface) while the metrics are on.
func metricsAddr(value string, on bool) (string, error) {
	if value == "" {
		return "", nil
	}
	if !on {
		return "", errors.New("METRICS_ADDR is set while METRICS=false: unset one of them")
	}
	_, port, err := net.SplitHostPort(value)
	if n, perr := strconv.Atoi(port); err != nil || perr != nil || n < 1 || n > 65535 {
		return "", fmt.Errorf("METRICS_ADDR must be host:port or :port, such as :9090, got %q", value)
	}
	return value, nil
}

// positiveDuration parses the value of the variable key as a Go duration
// above zero.
func positiveDuration(key, value string) (time.Duration, error) {
	d, err := time.ParseDuration(value)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%s must be a positive duration such as 10s or 500ms, got %q", key, value)
	}
	return d, nil
}

// positiveInt parses the value of the variable key as an integer above zero.
func positiveInt(key, value string) (int, error) {
	n, err := strconv.Atoi(value)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%s must be a whole number above 0, got %q", key, value)
	}
	return n, nil
}

func envOr(lookupEnv func(string) (string, bool), key, def string) string {
	if v, _ := lookupEnv(key); v != "" {
		return v
	}
	return def
}

func parseBool(s string) (bool, error) {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return false, fmt.Errorf("want true or false, got %q", s)
	}
	return b, nil
}

// splitList splits a comma-separated list, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// parseUsers parses "user:pass,user2:pass2". A name given twice, or a name
// or password that begins or ends with a space, is refused rather than
// kept in a form nobody would type.
func parseUsers(s string) (map[string]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	users := map[string]string{}
	for _, pair := range strings.Split(s, ",") {
		name, pass, ok := strings.Cut(strings.TrimSpace(pair), ":")
		switch {
		case !ok || name == "" || pass == "":
			return nil, fmt.Errorf("want user:pass pairs separated by commas")
		case strings.TrimSpace(name) != name || strings.TrimSpace(pass) != pass:
			return nil, fmt.Errorf("the name or password of %q has spaces around it", strings.TrimSpace(name))
		case users[name] != "":
			return nil, fmt.Errorf("%q is given twice", name)
		}
		users[name] = pass
	}
	return users, nil
}

// minJWTSecret is the shortest JWT_SECRET production accepts: HS256 wants
// a key at least as long as its hash.
const minJWTSecret = 32

// accounts are the settings of the example service's accounts.
type accounts struct {
	AccessTTL, RefreshTTL time.Duration
	// AuthRateLimit is requests per minute per address on the public auth
	// routes; 0 is off.
	AuthRateLimit int
	// AdminEmail and AdminPassword make the bootstrap admin when both are
	// set.
	AdminEmail, AdminPassword string
	// IntrospectionClients are the services that may introspect tokens:
	// secrets by client id.
	IntrospectionClients map[string]string
}

// loadAccounts reads the token lifetimes, the auth rate limit and the
// bootstrap admin.
func loadAccounts(cfg *config, lookupEnv func(string) (string, bool)) error {
	getenv := func(key string) string { v, _ := lookupEnv(key); return v }
	var err error
	a := &cfg.Accounts
	if a.AccessTTL, err = positiveDuration("ACCESS_TOKEN_TTL", envOr(lookupEnv, "ACCESS_TOKEN_TTL", "15m")); err != nil {
		return err
	}
	if a.RefreshTTL, err = positiveDuration("REFRESH_TOKEN_TTL", envOr(lookupEnv, "REFRESH_TOKEN_TTL", "720h")); err != nil {
		return err
	}
	limit := envOr(lookupEnv, "AUTH_RATE_LIMIT", "30")
	if a.AuthRateLimit, err = strconv.Atoi(limit); err != nil || a.AuthRateLimit < 0 {
		return fmt.Errorf("AUTH_RATE_LIMIT must be a whole number of requests per minute, 0 for no limit, got %q", limit)
	}
	a.AdminEmail, a.AdminPassword = getenv("ADMIN_EMAIL"), getenv("ADMIN_PASSWORD")
	if (a.AdminEmail == "") != (a.AdminPassword == "") {
		return errors.New("ADMIN_EMAIL and ADMIN_PASSWORD go together: set both to create the bootstrap admin, or neither")
	}
	if a.IntrospectionClients, err = parseUsers(getenv("INTROSPECTION_CLIENTS")); err != nil {
		return fmt.Errorf("INTROSPECTION_CLIENTS: %w", err)
	}
	for id, secret := range a.IntrospectionClients {
		if len(secret) < minClientSecret {
			return fmt.Errorf("INTROSPECTION_CLIENTS: the secret of %s has %d bytes, fewer than %d (make one with: openssl rand -hex 32)", id, len(secret), minClientSecret)
		}
	}
	return nil
}

// minClientSecret is the shortest secret of an introspection client: one
// that cannot be guessed, since its attempts are not throttled.
const minClientSecret = 32

// setting documents one environment variable of the configuration; api
// --help lists them.
type setting struct {
	// Name is the variable.
	Name string
	// Default is the value the variable has when it is unset or empty,
	// spelt as it would be set; empty when the absence itself means
	// something, which Meaning then says.
	Default string
	// Meaning says what the variable sets.
	Meaning string
	// ProcessOnly marks a variable a library reads from the process
	// environment itself: loadConfig never sees it and .env does not set
	// it.
	ProcessOnly bool
}

// settings are the variables of the service, in the order of docs/configuration.md's
// configuration table. loadConfig reads every one of them but the
// ProcessOnly ones (a test holds the two together).
func settings() []setting {
	return []setting{
		{Name: "HOST", Default: "0.0.0.0", Meaning: "listen address"},
		{Name: "PORT", Default: "8080", Meaning: "listen port"},
		{Name: "BASE_PATH", Default: "/api", Meaning: "prefix of the controller and docs routes; set empty to mount them at /"},
		{Name: "DATABASE_URL", Meaning: "postgres://… for PostgreSQL, sqlite:path or file:path for SQLite; empty is SQLite in ./data/app.db"},
		{Name: "JWT_SIGNING_KEYS", Meaning: "Ed25519 private keys of the access tokens (PEM or a JWK Set; the first signs, all verify; public keys at /.well-known/jwks.json); development without it or JWT_SECRET makes one into " + devKeysFile},
		{Name: "JWT_SIGNING_KEYS_FILE", Meaning: "a file holding JWT_SIGNING_KEYS instead (a mounted secret); api keys rotate and retire edit it"},
		{Name: "JWT_SECRET", Meaning: fmt.Sprintf("HS256 secret of the access tokens for a single service, at least %d bytes; production needs it or JWT_SIGNING_KEYS; with keys it keys only the list cursors and the idempotency fingerprints, unless PAGING_CURSOR_SECRET and IDEMPOTENCY_SECRET do", minJWTSecret)},
		{Name: "ACCESS_TOKEN_TTL", Default: "15m", Meaning: "lifetime of an access token"},
		{Name: "REFRESH_TOKEN_TTL", Default: "720h", Meaning: "lifetime of a session, and so of its refresh tokens"},
		{Name: "AUTH_RATE_LIMIT", Default: "30", Meaning: "requests per minute per client address to sign-up, login, refresh and members' email changes; 0 turns it off"},
		{Name: "TRUSTED_PROXIES", Meaning: "comma-separated proxy addresses or CIDR ranges whose X-Forwarded-For names the client; empty trusts none"},
		{Name: "ADMIN_EMAIL", Meaning: "with ADMIN_PASSWORD: start-up creates this active admin unless a user with the email exists"},
		{Name: "ADMIN_PASSWORD", Meaning: "password of the bootstrap admin of ADMIN_EMAIL"},
		{Name: "INTROSPECTION_CLIENTS", Meaning: fmt.Sprintf("services that may ask POST {base}/auth/introspect whether an access token is active (RFC 7662), with HTTP Basic credentials: id:secret,id2:secret2, each secret at least %d bytes; empty lets none", minClientSecret)},
		{Name: "DOCS_AUTH", Default: "false", Meaning: "put the docs UI, spec.json and the developer tools behind HTTP Basic auth"},
		{Name: "DOCS_USERS", Meaning: "Basic-auth accounts of the docs, user:pass,user2:pass2; required when DOCS_AUTH=true"},
		{Name: "APP_ENV", Default: "development", Meaning: "development (text logs) or production: JSON logs, and {base}/sync is off"},
		{Name: "LOG_LEVEL", Default: "info", Meaning: "debug, info, warn or error"},
		{Name: "MIGRATE_ON_START", Default: "true", Meaning: "apply the pending migrations before serving"},
		{Name: "LOG_REQUESTS", Default: "true", Meaning: "one log line per request: method, path, status, duration, request id"},
		{Name: "OTEL_TRACES_EXPORTER", Default: "none", Meaning: "otlp or console turns tracing on, with the other standard OTEL_* variables; process environment only, not .env", ProcessOnly: true},
		{Name: "REQUEST_TIMEOUT", Default: "10s", Meaning: "deadline of every request's context; past it the request answers 503"},
		{Name: "IDEMPOTENCY_TTL", Default: "24h", Meaning: "how long the answer to an Idempotency-Key is kept for retries (sign-up, and every generated create)"},
		{Name: "DB_MAX_OPEN_CONNS", Default: "25", Meaning: "PostgreSQL pool: open connections at most"},
		{Name: "DB_MAX_IDLE_CONNS", Meaning: "PostgreSQL pool: idle connections kept; empty is DB_MAX_OPEN_CONNS"},
		{Name: "DB_STATEMENT_TIMEOUT", Default: "10s", Meaning: "PostgreSQL statement_timeout of every serving connection; one in DATABASE_URL wins"},
		{Name: "DB_CONNECT_TIMEOUT", Default: "5s", Meaning: "bound on opening a PostgreSQL connection; connect_timeout in DATABASE_URL wins"},
		{Name: "METRICS", Default: "true", Meaning: "serve Prometheus metrics at GET /metrics"},
		{Name: "METRICS_ADDR", Meaning: "host:port (such as :9090) of a listener of their own for GET /metrics, off the service's port; empty serves them on PORT"},
		{Name: "SHUTDOWN_DELAY", Default: "0s", Meaning: "on SIGTERM, how long /readyz answers 503 while requests are still served"},
		{Name: "SHUTDOWN_TIMEOUT", Default: "15s", Meaning: "after the listener closes, how long requests in flight may take"},
		{Name: "MAX_CONNS", Meaning: "connections open at once on PORT; past it a new one is answered 503 and closed; empty is three quarters of the open-files limit (ulimit -n), at most 10000"},
		{Name: "MAX_CONNS_PER_ADDRESS", Meaning: "connections open at once from one client address (IPv6 by /64); trusted proxies count only against MAX_CONNS; empty is an eighth of MAX_CONNS"},
		{Name: "READ_HEADER_TIMEOUT", Default: "10s", Meaning: "how long a request's line and headers may take to arrive; its body then has a minute"},
		{Name: "DATABASE_REPLICA_URLS", Meaning: "comma-separated postgres:// DSNs of read replicas of DATABASE_URL"},
		{Name: "MIGRATE_LOCK_TIMEOUT", Default: "60s", Meaning: "how long a start or migrate waits while another instance migrates"},
		{Name: "PAGING_COUNT_BUDGET", Default: "25ms", Meaning: "how long a list may count its rows exactly before it answers an estimate; 0 never counts exactly"},
		{Name: "PAGING_COUNT_MAX_AGE", Default: "1m", Meaning: "how long the pages reached by cursor reuse the total their list's first page counted; 0 counts every page"},
		{Name: "PAGING_CURSOR_SECRET", Meaning: fmt.Sprintf("signs the list cursors, shared by every instance and untouched by api keys rotate; empty is JWT_SECRET, or in development without it %s; production with JWT_SIGNING_KEYS and no JWT_SECRET needs it, at least %d bytes", devSecretFile, minJWTSecret)},
		{Name: "IDEMPOTENCY_SECRET", Meaning: fmt.Sprintf("keys the fingerprints of Idempotency-Key requests, shared by every instance and untouched by api keys rotate; empty is JWT_SECRET, or in development without it %s; production with JWT_SIGNING_KEYS and no JWT_SECRET needs it, at least %d bytes", devSecretFile, minJWTSecret)},
		{Name: "PUBLIC_URL", Meaning: "the service's URL as others reach it, such as https://accounts.example.com (http only in development or on a loopback host): the iss of its access tokens instead of fiber-template, and with Ed25519 signing keys it serves its issuer metadata at /.well-known/openid-configuration and /.well-known/oauth-authorization-server, so other services trust it by AUTH_ISSUER (docs/fleet.md)"},
		{Name: "AUTH_ISSUER", Meaning: "the issuer this service trusts, by URL (our issuer's PUBLIC_URL, a Keycloak realm, an Auth0 tenant...): a resource server, whose auth routes verify that issuer's access tokens, discovered at AUTH_ISSUER/.well-known/openid-configuration then /.well-known/oauth-authorization-server; the accounts example is not mounted unless AUTH_KEEP_ACCOUNTS (docs/fleet.md)"},
		{Name: "AUTH_JWKS_URL", Meaning: "the issuer's JWK Set, skipping discovery; AUTH_ISSUER is then only the iss tokens must carry"},
		{Name: "AUTH_AUDIENCE", Default: "fiber-template-api", Meaning: "comma-separated aud values a token must name one of (the default is our issuer's audience)"},
		{Name: "AUTH_ROLES_CLAIM", Default: "role", Meaning: "the claim the caller's roles are in, a dotted path such as realm_access.roles; a list of strings, or a string split on spaces (scope)"},
		{Name: "AUTH_JWKS_MIN_REFRESH", Default: "1m", Meaning: "tokens of an unknown kid fetch the issuer's keys again at most this often, the first one at once (after a rotation at the issuer); a Cache-Control max-age running out fetches them too, no more often"},
		{Name: "AUTH_INTROSPECTION_URL", Meaning: "the issuer's introspection endpoint (RFC 7662): every token is also asked about there, which sees logouts; empty asks nothing"},
		{Name: "AUTH_INTROSPECTION_CLIENT_ID", Meaning: "this service's client id at the introspection endpoint (HTTP Basic)"},
		{Name: "AUTH_INTROSPECTION_CLIENT_SECRET", Meaning: "this service's client secret at the introspection endpoint"},
		{Name: "AUTH_INTROSPECTION_CACHE", Default: "30s", Meaning: "how long an answer of the introspection endpoint about a token is kept: a logout is seen within it"},
		{Name: "AUTH_INTROSPECTION_FAILURE", Default: "closed", Meaning: "closed refuses a token while the introspection endpoint cannot answer, open accepts it on its signature"},
		{Name: "AUTH_KEEP_ACCOUNTS", Default: "false", Meaning: "true keeps the accounts example (sign-up, login, users, sessions) beside AUTH_ISSUER: its own tokens and the issuer's are both accepted"},
	}
}
