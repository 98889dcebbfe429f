package app

import (
	"context"
	"log/slog"
	"time"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/platform/database"
)

// idempotencySweepEvery is how often expired Idempotency-Keys are deleted,
// unless their TTL is shorter.
const idempotencySweepEvery = time.Minute

// idempotencyKeys is the store of the idempotent routes' answers when the
// router's Config leaves it unset: the keys in db, shared by every
// instance, swept every minute, or every ttl (the router's
// IdempotencyTTL) when that is shorter, until ctx is done or db is
// closed.
func idempotencyKeys(ctx context.Context, db *bun.DB, ttl time.Duration, logger *slog.Logger) *database.IdempotencyKeys {
	keys := database.NewIdempotencyKeys(db)
	period := idempotencySweepEvery
	if ttl > 0 && ttl < period {
		period = ttl
	}
	go every(ctx, period, "sweep idempotency keys", logger, func(ctx context.Context, now time.Time) error {
		_, err := keys.Sweep(ctx, now)
		return err
	})
	return keys
}
