package migrations

import (
	"io"
	"log/slog"
	"time"
)

// DefaultLockTimeout is how long Migrate, Rollback and Status wait for the
// migration lock that another process holds, by default.
const DefaultLockTimeout = 60 * time.Second

// Option tunes Migrate, Rollback, Status and ClearStaleLock.
type Option func(*options)

type options struct {
	lockTimeout time.Duration
	logger      *slog.Logger
}

// WithLockTimeout sets how long to wait for the migration lock while
// another process migrates the same database, before giving up with
// ErrLockTimeout. Zero or less keeps DefaultLockTimeout.
func WithLockTimeout(d time.Duration) Option {
	return func(o *options) {
		if d > 0 {
			o.lockTimeout = d
		}
	}
}

// WithLogger sets where waiting for the lock and clearing a stale one are
// reported. Default: nowhere.
func WithLogger(l *slog.Logger) Option {
	return func(o *options) {
		if l != nil {
			o.logger = l
		}
	}
}

func newOptions(opts []Option) options {
	o := options{lockTimeout: DefaultLockTimeout, logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	for _, opt := range opts {
		opt(&o)
	}
	return o
}
