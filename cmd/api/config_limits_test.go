package main

import (
	"strings"
	"testing"
	"time"

	"github.com/asapjs/fiber-template/platform/database"
)

func TestLoadConfigLimits(t *testing.T) {
	t.Parallel()
	ok := []struct {
		name    string
		vars    map[string]string
		timeout time.Duration
		pool    database.Pool
	}{
		{"unset variables give the documented defaults", map[string]string{}, 10 * time.Second,
			database.Pool{MaxOpenConns: 25, MaxIdleConns: 25, ConnectTimeout: 5 * time.Second, StatementTimeout: 10 * time.Second}},
		{"each is read", map[string]string{"REQUEST_TIMEOUT": "3s", "DB_MAX_OPEN_CONNS": "8", "DB_MAX_IDLE_CONNS": "2", "DB_CONNECT_TIMEOUT": "1s", "DB_STATEMENT_TIMEOUT": "2500ms"}, 3 * time.Second,
			database.Pool{MaxOpenConns: 8, MaxIdleConns: 2, ConnectTimeout: time.Second, StatementTimeout: 2500 * time.Millisecond}},
		{"idle connections follow the open ones when unset", map[string]string{"DB_MAX_OPEN_CONNS": "4"}, 10 * time.Second,
			database.Pool{MaxOpenConns: 4, MaxIdleConns: 4, ConnectTimeout: 5 * time.Second, StatementTimeout: 10 * time.Second}},
	}
	for _, tt := range ok {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg, err := loadConfig(env(tt.vars))
			if err != nil {
				t.Fatal(err)
			}
			if cfg.RequestTimeout != tt.timeout || cfg.Pool != tt.pool {
				t.Errorf("timeout %s pool %+v, want %s %+v", cfg.RequestTimeout, cfg.Pool, tt.timeout, tt.pool)
			}
		})
	}
	bad := []struct{ key, value string }{
		{"REQUEST_TIMEOUT", "10"}, {"REQUEST_TIMEOUT", "0s"}, {"DB_STATEMENT_TIMEOUT", "-1s"},
		{"DB_CONNECT_TIMEOUT", "soon"}, {"DB_MAX_OPEN_CONNS", "0"}, {"DB_MAX_IDLE_CONNS", "many"},
		{"DB_MAX_IDLE_CONNS", "26"},
	}
	for _, b := range bad {
		t.Run(b.key+"="+b.value+" is refused, naming the variable", func(t *testing.T) {
			t.Parallel()
			_, err := loadConfig(env(map[string]string{b.key: b.value}))
			if err == nil || !strings.Contains(err.Error(), b.key) {
				t.Errorf("error %v, want one naming %s", err, b.key)
			}
		})
	}
}

func TestLoadConfigMetricsAddr(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		vars    map[string]string
		want    string // the address; "" with refused for an error
		refused bool
	}{
		{"unset serves the metrics on the service's port", map[string]string{}, "", false},
		{"a port alone listens on every interface", map[string]string{"METRICS_ADDR": ":9090"}, ":9090", false},
		{"a host and port", map[string]string{"METRICS_ADDR": "127.0.0.1:9090"}, "127.0.0.1:9090", false},
		{"a port without its colon is refused", map[string]string{"METRICS_ADDR": "9090"}, "", true},
		{"a port out of range is refused", map[string]string{"METRICS_ADDR": ":70000"}, "", true},
		{"a named port is refused", map[string]string{"METRICS_ADDR": ":metrics"}, "", true},
		{"with the metrics off it is refused", map[string]string{"METRICS_ADDR": ":9090", "METRICS": "false"}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg, err := loadConfig(env(tt.vars))
			switch {
			case tt.refused && (err == nil || !strings.Contains(err.Error(), "METRICS_ADDR")):
				t.Errorf("error %v, want one naming METRICS_ADDR", err)
			case !tt.refused && (err != nil || cfg.MetricsAddr != tt.want):
				t.Errorf("MetricsAddr %q, %v; want %q", cfg.MetricsAddr, err, tt.want)
			}
		})
	}
}
