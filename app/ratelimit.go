package app

import (
	"context"
	"log/slog"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/app/controllers"
	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/ratelimit"
)

// authLimitMemoryBudget is the byte budget of the auth rate limit's
// counters in memory (SQLite, one process): 8 MiB holds the counters of
// 32,768 client addresses (ratelimit.EntryBytes each); past that the
// least recently seen address is forgotten.
const authLimitMemoryBudget = 8 << 20

// rateLimitSweepEvery is how often the counters of ended windows are
// deleted from the database.
const rateLimitSweepEvery = time.Minute

// loginFailurePruneEvery is how often the failed logins that no longer
// count (older than the throttle's window) are deleted.
const loginFailurePruneEvery = 10 * time.Minute

// The database counters are a ratelimit.Store.
var _ ratelimit.Store = (*database.RateLimitCounters)(nil)

// authRateLimit limits each client address (clientip's canonical key,
// IPv6 by /64) to max requests a minute: the public auth routes (sign-up,
// login, refresh) take its Handler as per-route middleware, so every
// spelling of their paths counts, and a change of one's own email counts
// with Hit, since it too tells whether an email is taken. Every answer
// carries RateLimit-Limit, -Remaining and -Reset; over the limit it is a
// 429 problem with Retry-After; when store fails it is a 503.
func authRateLimit(max int, store ratelimit.Store, logger *slog.Logger) *ratelimit.Limiter {
	return ratelimit.NewLimiter(ratelimit.Config{
		Max:    max,
		Window: time.Minute,
		Store:  store,
		Scope:  "auth",
		Logger: logger,
		LimitReached: func(_ *fiber.Ctx, retryAfter int) error {
			return controllers.ErrTooManyRequests.WithDetail("Too many requests to the auth routes from this address; try again in %d seconds.", retryAfter)
		},
	})
}

// rateLimitStore is the store of the auth rate limit when Options leave
// it unset: the counters in db on PostgreSQL, shared by every instance
// and swept every minute until ctx is done or db is closed; in memory,
// bounded, on SQLite, which is one process.
func rateLimitStore(ctx context.Context, db *bun.DB, logger *slog.Logger) ratelimit.Store {
	if database.DialectOfDB(db) != database.Postgres {
		return ratelimit.NewMemoryStore(authLimitMemoryBudget)
	}
	counters := database.NewRateLimitCounters(db)
	go every(ctx, rateLimitSweepEvery, "sweep rate limit counters", logger, func(ctx context.Context, now time.Time) error {
		_, err := counters.Sweep(ctx, now)
		return err
	})
	return counters
}

// every calls fn with the time at each tick of period until ctx is done
// or fn fails because the database is closed; its other failures are
// logged as what, and the next tick tries again.
func every(ctx context.Context, period time.Duration, what string, logger *slog.Logger, fn func(ctx context.Context, now time.Time) error) {
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			if err := fn(ctx, now); err != nil {
				if ctx.Err() != nil || database.Closed(err) {
					return
				}
				logger.Warn(what, slog.Any("error", err))
			}
		}
	}
}
