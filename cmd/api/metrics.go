package main

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
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
