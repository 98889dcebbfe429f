package ratelimit

import (
	"log/slog"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/clientip"
	"github.com/asapjs/fiber-template/platform/problem"
)

// Config configures New.
type Config struct {
	// Next skips the limiter for the requests it returns true for: they
	// are neither counted nor refused.
	//
	// Optional. Default: nil
	Next func(c *fiber.Ctx) bool
	// Max is how many requests a key may make in one Window; the next
	// ones are refused until the window ends.
	//
	// Optional. Default: 5
	Max int
	// Window is the length of a fixed window, which starts with the first
	// request of a key.
	//
	// Optional. Default: 1 minute
	Window time.Duration
	// Store keeps the counters. Share one store among the instances of a
	// deployment to count them together; several limiters may share one
	// store, their Scopes keep them apart.
	//
	// Optional. Default: NewMemoryStore(DefaultMemoryBudget), one per New
	Store Store
	// Key names whom a request counts against.
	//
	// Optional. Default: clientip.Key(clientip.From(c)), the canonical
	// client address (IPv6 by /64)
	Key func(c *fiber.Ctx) string
	// Scope prefixes the keys of this limiter in the Store, as
	// Scope + ":" + key; a key longer than MaxKeyLen in all is hashed.
	//
	// Optional. Default: "rl"
	Scope string
	// LimitReached returns the error a refused request answers with;
	// retryAfter is the seconds until the window ends, already set as
	// Retry-After and RateLimit-Reset.
	//
	// Optional. Default: a 429 problem (problem.ErrTooManyRequests)
	// saying when to retry
	LimitReached func(c *fiber.Ctx, retryAfter int) error
	// Logger receives a warning for every request refused because the
	// Store failed.
	//
	// Optional. Default: slog.Default()
	Logger *slog.Logger
	// Now is the clock.
	//
	// Optional. Default: time.Now
	Now func() time.Time
}

// Defaults of the Config.
const (
	// DefaultMax is the default Config.Max.
	DefaultMax = 5
	// DefaultWindow is the default Config.Window.
	DefaultWindow = time.Minute
	// DefaultScope is the default Config.Scope.
	DefaultScope = "rl"
)

// ConfigDefault is the default configuration. Its Store is nil: New makes
// a memory store of its own for every limiter left without one.
var ConfigDefault = Config{
	Max:          DefaultMax,
	Window:       DefaultWindow,
	Key:          clientKey,
	Scope:        DefaultScope,
	LimitReached: limitReached,
	Now:          time.Now,
}

// clientKey is the canonical client address of the request.
func clientKey(c *fiber.Ctx) string { return clientip.Key(clientip.From(c)) }

// limitReached is the default Config.LimitReached.
func limitReached(_ *fiber.Ctx, retryAfter int) error {
	return problem.ErrTooManyRequests.WithDetail("Too many requests; try again in %d seconds.", retryAfter)
}

// configDefault fills the zero fields of cfg with their defaults. A
// negative Max or Window is a programming error: it panics.
func configDefault(cfg Config) Config {
	if cfg.Max < 0 || cfg.Window < 0 {
		panic("ratelimit: Max and Window must not be negative")
	}
	if cfg.Max == 0 {
		cfg.Max = ConfigDefault.Max
	}
	if cfg.Window == 0 {
		cfg.Window = ConfigDefault.Window
	}
	if cfg.Store == nil {
		cfg.Store = NewMemoryStore(DefaultMemoryBudget)
	}
	if cfg.Key == nil {
		cfg.Key = ConfigDefault.Key
	}
	if cfg.Scope == "" {
		cfg.Scope = ConfigDefault.Scope
	}
	if cfg.LimitReached == nil {
		cfg.LimitReached = ConfigDefault.LimitReached
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = ConfigDefault.Now
	}
	return cfg
}
