package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/asapjs/fiber-template/platform/connlimit"
	"github.com/asapjs/fiber-template/platform/router"
)

// drain stops the service in the order a load balancer needs: /readyz
// answers 503 at once, requests keep being served for cfg.ShutdownDelay
// while the balancer notices, then the listener closes and the requests in
// flight get cfg.ShutdownTimeout to finish. Connections still open after
// that are cut, which is logged with their number and returned as an
// error, so the process exits non-zero.
func drain(cfg config, logger *slog.Logger, r *router.Router, conns *connlimit.Listener) error {
	r.Drain()
	logger.Info("shutting down: /readyz answers 503",
		slog.Duration("delay", cfg.ShutdownDelay), slog.Duration("timeout", cfg.ShutdownTimeout))
	time.Sleep(cfg.ShutdownDelay)
	ctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	err := r.Shutdown(ctx)
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		open := conns.Open()
		logger.Error("shutdown timed out: cutting the connections still open",
			slog.Int("connections", open), slog.Duration("timeout", cfg.ShutdownTimeout))
		return fmt.Errorf("shutdown: %d connection(s) still open after %s were cut", open, cfg.ShutdownTimeout)
	case err != nil:
		return fmt.Errorf("shutdown: %w", err)
	}
	logger.Info("shut down: every request finished")
	return nil
}
