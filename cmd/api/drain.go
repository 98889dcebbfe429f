package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asapjs/fiber-template/platform/router"
)

// drain stops the service in the order a load balancer needs: /readyz
// answers 503 at once, requests keep being served for cfg.ShutdownDelay
// while the balancer notices, then the listener closes and the requests in
// flight get cfg.ShutdownTimeout to finish. Connections still open after
// that are cut, which is logged with their number and returned as an
// error, so the process exits non-zero.
func drain(cfg config, logger *slog.Logger, r *router.Router, conns *countingListener) error {
	r.Drain()
	logger.Info("shutting down: /readyz answers 503",
		slog.Duration("delay", cfg.ShutdownDelay), slog.Duration("timeout", cfg.ShutdownTimeout))
	time.Sleep(cfg.ShutdownDelay)
	ctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	err := r.Shutdown(ctx)
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		open := conns.open()
		logger.Error("shutdown timed out: cutting the connections still open",
			slog.Int64("connections", open), slog.Duration("timeout", cfg.ShutdownTimeout))
		return fmt.Errorf("shutdown: %d connection(s) still open after %s were cut", open, cfg.ShutdownTimeout)
	case err != nil:
		return fmt.Errorf("shutdown: %w", err)
	}
	logger.Info("shut down: every request finished")
	return nil
}

// countingListener counts the connections it accepted that are still open,
// so a forced shutdown can say how many it cuts.
type countingListener struct {
	net.Listener
	n atomic.Int64
}

// Accept counts the connection until it is closed.
func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	l.n.Add(1)
	return &countedConn{Conn: c, l: l}, nil
}

// open returns the number of accepted connections not yet closed.
func (l *countingListener) open() int64 { return l.n.Load() }

// countedConn uncounts itself on its first Close.
type countedConn struct {
	net.Conn
	l    *countingListener
	once sync.Once
}

func (c *countedConn) Close() error {
	c.once.Do(func() { c.l.n.Add(-1) })
	return c.Conn.Close()
}

// CloseWrite closes the writing side of a TCP connection, so the router
// can close gracefully after answering a request without reading its body.
func (c *countedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return errors.ErrUnsupported
}
