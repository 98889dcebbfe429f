package main

import (
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/asapjs/fiber-template/platform/clientip"
	"github.com/asapjs/fiber-template/platform/database"
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
	DocsAuth            bool
	DocsUsers           map[string]string
	Env                 string
	LogLevel            slog.Level
	// MigrateOnStart applies pending migrations before serving.
	MigrateOnStart bool
	// MigrateLockTimeout bounds the wait for the migration lock while
	// another instance migrates.
	MigrateLockTimeout time.Duration
	// LogRequests writes one log line per request.
	LogRequests bool
	// PagingCursorSecret signs the cursors of list routes; empty derives
	// their key from JWTSecret.
	PagingCursorSecret []byte
	// PagingCountBudget is how long a list may count its total exactly
	// before it answers an estimate.
	PagingCountBudget time.Duration
	// RequestTimeout is the deadline of every request's context.
	RequestTimeout time.Duration
	// TrustedProxies are the proxies (addresses or CIDR ranges) whose
	// X-Forwarded-For names the client; empty trusts none.
	TrustedProxies []string
	// Pool bounds the PostgreSQL pools: connections, connect and
	// statement timeouts.
	Pool database.Pool
	// Metrics serves GET /metrics.
	Metrics bool
	// ShutdownDelay is how long /readyz answers 503 before the listener
	// closes, so load balancers stop sending requests first.
	ShutdownDelay time.Duration
	// ShutdownTimeout bounds the wait for requests in flight once the
	// listener is closed.
	ShutdownTimeout time.Duration
	// Accounts are the settings of sessions, throttling and the bootstrap
	// admin.
	Accounts accounts
	// generatedSecret is true when JWTSecret was made up for this run.
	generatedSecret bool
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
	cfg.PagingCursorSecret = []byte(getenv("PAGING_CURSOR_SECRET"))
	if err := loadLimits(&cfg, lookupEnv); err != nil {
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
	switch secret := getenv("JWT_SECRET"); {
	case secret != "" && cfg.Env == "production" && len(secret) < minJWTSecret:
		return cfg, fmt.Errorf("JWT_SECRET must have at least %d bytes when APP_ENV=production, got %d (make one with: openssl rand -base64 32)", minJWTSecret, len(secret))
	case secret != "":
		cfg.JWTSecret = []byte(secret)
	case cfg.Env == "production":
		return cfg, errors.New("JWT_SECRET is required when APP_ENV=production")
	default:
		cfg.JWTSecret = make([]byte, 32)
		if _, err := rand.Read(cfg.JWTSecret); err != nil {
			return cfg, fmt.Errorf("generate JWT secret: %w", err)
		}
		cfg.generatedSecret = true
	}
	return cfg, nil
}

// loadLimits reads the deadlines and the pool sizes.
func loadLimits(cfg *config, lookupEnv func(string) (string, bool)) error {
	var err error
	if cfg.RequestTimeout, err = positiveDuration("REQUEST_TIMEOUT", envOr(lookupEnv, "REQUEST_TIMEOUT", "10s")); err != nil {
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

// parseUsers parses "user:pass,user2:pass2".
func parseUsers(s string) (map[string]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	users := map[string]string{}
	for _, pair := range strings.Split(s, ",") {
		name, pass, ok := strings.Cut(strings.TrimSpace(pair), ":")
		if !ok || name == "" || pass == "" {
			return nil, fmt.Errorf("want user:pass pairs separated by commas")
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
	return nil
}
