package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/uptrace/bun"
)

// metricsRegistry is the registry GET /metrics serves: the router adds the
// request metrics to the Go runtime, the process and the primary's pool.
func metricsRegistry(db *bun.DB) *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		collectors.NewDBStatsCollector(db.DB, "primary"),
	)
	return reg
}

// metricsServer serves GET /metrics on a listener of its own (METRICS_ADDR),
// which the service's port, and so its Service and ingress, cannot reach.
type metricsServer struct {
	srv *http.Server
	ln  net.Listener
}

// listenMetrics listens on addr for the metrics of reg; serve starts
// answering.
func listenMetrics(addr string, reg *prometheus.Registry) (*metricsServer, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen for metrics: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	return &metricsServer{ln: ln, srv: &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}}, nil
}

// serve answers scrapes until close; an error other than closing is sent to
// failed.
func (m *metricsServer) serve(failed chan<- error) {
	if err := m.srv.Serve(m.ln); !errors.Is(err, http.ErrServerClosed) {
		failed <- fmt.Errorf("serve metrics: %w", err)
	}
}

// close stops the listener and waits a few seconds for a scrape in flight.
func (m *metricsServer) close(logger *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := m.srv.Shutdown(ctx); err != nil {
		logger.Warn("close the metrics listener", slog.Any("error", err))
	}
}
