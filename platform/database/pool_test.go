package database

import (
	"testing"
	"time"
)

// TestPoolDefaults: a pool configured with zero or negative sizes and
// timeouts gets the defaults, and never keeps more idle connections than
// it may open.
func TestPoolDefaults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   Pool
		want Pool
	}{
		{"zero", Pool{}, Pool{MaxOpenConns: DefaultMaxOpenConns, MaxIdleConns: DefaultMaxOpenConns, ConnectTimeout: DefaultConnectTimeout}},
		{"negative", Pool{MaxOpenConns: -1, MaxIdleConns: -1, ConnectTimeout: -time.Second},
			Pool{MaxOpenConns: DefaultMaxOpenConns, MaxIdleConns: DefaultMaxOpenConns, ConnectTimeout: DefaultConnectTimeout}},
		{"more idle than open", Pool{MaxOpenConns: 4, MaxIdleConns: 9, ConnectTimeout: time.Second},
			Pool{MaxOpenConns: 4, MaxIdleConns: 4, ConnectTimeout: time.Second}},
		{"set", Pool{MaxOpenConns: 1, MaxIdleConns: 1, ConnectTimeout: time.Nanosecond},
			Pool{MaxOpenConns: 1, MaxIdleConns: 1, ConnectTimeout: time.Nanosecond}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := poolDefault(tt.in); got != tt.want {
				t.Errorf("poolDefault(%+v) = %+v, want %+v", tt.in, got, tt.want)
			}
		})
	}
}
