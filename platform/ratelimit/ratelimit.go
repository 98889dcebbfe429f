package ratelimit

import (
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/problem"
)

// ErrUnavailable answers a request whose limit could not be checked
// because the Store failed or the request ran out of time: 503, which the
// router sends with Retry-After. The limiter fails closed. Over the limit
// it answers problem.ErrTooManyRequests by default.
var ErrUnavailable = problem.Declare(http.StatusServiceUnavailable, "rate_limit_unavailable", "Rate limit unavailable")

// Header names of the IETF draft.
const (
	HeaderLimit     = "RateLimit-Limit"
	HeaderRemaining = "RateLimit-Remaining"
	HeaderReset     = "RateLimit-Reset"
)

// New returns the limiter as middleware: NewLimiter(cfg).Handler().
func New(cfg Config) fiber.Handler { return NewLimiter(cfg).Handler() }

// Limiter counts requests per key in fixed windows; its Handler is the
// middleware, and Hit counts a request from inside a handler, for a limit
// that applies to what a request turns out to do (an email change, say)
// rather than to its route.
type Limiter struct {
	cfg    Config
	prefix string
}

// NewLimiter returns the limiter of cfg. Limiters of one Store and Scope
// count together.
func NewLimiter(cfg Config) *Limiter {
	cfg = configDefault(cfg)
	return &Limiter{cfg: cfg, prefix: cfg.Scope + ":"}
}

// Handler returns the middleware: it counts every request it sees (but
// those Config.Next skips) with Hit and passes those under the limit on.
func (l *Limiter) Handler() fiber.Handler {
	return func(c *fiber.Ctx) error {
		if l.cfg.Next != nil && l.cfg.Next(c) {
			return c.Next()
		}
		if err := l.Hit(c); err != nil {
			return err
		}
		return c.Next()
	}
}

// Errors are the declared errors Handler answers with, for the routes it
// guards to document (router.Guard): problem.ErrTooManyRequests, what the
// default LimitReached answers (a custom one's errors are its own to
// declare), and ErrUnavailable when the Store fails.
func (l *Limiter) Errors() []*problem.Error {
	return []*problem.Error{problem.ErrTooManyRequests, ErrUnavailable}
}

// Hit counts the request under Scope + ":" + Key(c) with the request's
// context (c.UserContext(), which carries the router's request deadline),
// sets the RateLimit-* headers, and past Max returns LimitReached's error
// with Retry-After set. A Store error is ErrUnavailable wrapping the cause.
func (l *Limiter) Hit(c *fiber.Ctx) error {
	cfg := l.cfg
	now := cfg.Now()
	hits, reset, err := cfg.Store.Hit(c.UserContext(), boundKey(l.prefix+cfg.Key(c)), cfg.Window, now)
	if err != nil {
		cfg.Logger.Warn("rate limit store failed; request refused",
			slog.String("scope", cfg.Scope), slog.String("path", c.Path()), slog.Any("error", err))
		return fmt.Errorf("%w: %w", ErrUnavailable.WithDetail("The rate limit of this route cannot be checked right now; retry later."),
			fmt.Errorf("ratelimit %s: %w", cfg.Scope, err))
	}
	wait := Seconds(reset.Sub(now))
	SetHeaders(c, cfg.Max, cfg.Max-hits, wait)
	if hits > cfg.Max {
		c.Set(fiber.HeaderRetryAfter, strconv.Itoa(wait))
		return cfg.LimitReached(c, wait)
	}
	return nil
}

// SetHeaders sets RateLimit-Limit to limit, RateLimit-Remaining to
// remaining (0 when negative) and RateLimit-Reset to reset seconds on the
// response: for any throttle that answers with those headers.
func SetHeaders(c *fiber.Ctx, limit, remaining, reset int) {
	var buf [20]byte
	h := &c.Response().Header
	h.SetBytesV(HeaderLimit, strconv.AppendInt(buf[:0], int64(limit), 10))
	h.SetBytesV(HeaderRemaining, strconv.AppendInt(buf[:0], int64(max(0, remaining)), 10))
	h.SetBytesV(HeaderReset, strconv.AppendInt(buf[:0], int64(reset), 10))
}

// Seconds rounds d up to whole seconds, at least 1: the delta-seconds of
// RateLimit-Reset and Retry-After, never telling a client to retry at once.
func Seconds(d time.Duration) int {
	return max(1, int((d+time.Second-1)/time.Second))
}
