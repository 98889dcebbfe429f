package main

import (
	"context"
	"io"
	"log/slog"
	"testing"
)

// TestTracerProvider checks that OTEL_TRACES_EXPORTER alone decides
// whether the service traces: unset or none is off, console and otlp are
// on, and an unknown exporter refuses to start.
func TestTracerProvider(t *testing.T) {
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	cases := []struct {
		exporter string
		on       bool
		fails    bool
	}{
		{"", false, false},
		{"none", false, false},
		{"console", true, false},
		{"otlp", true, false},
		{"no-such-exporter", false, true},
	}
	for _, c := range cases {
		t.Run("OTEL_TRACES_EXPORTER="+c.exporter, func(t *testing.T) {
			t.Setenv("OTEL_TRACES_EXPORTER", c.exporter)
			// Never sends: the provider is shut down with nothing to send.
			t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:1")
			tp, shutdown, err := tracerProvider(context.Background(), logger)
			if (err != nil) != c.fails {
				t.Fatalf("error %v, want failure %v", err, c.fails)
			}
			if (tp != nil) != c.on {
				t.Errorf("provider %v, want tracing on %v", tp, c.on)
			}
			if tp != nil {
				if err := shutdown(context.Background()); err != nil {
					t.Errorf("shutdown: %v", err)
				}
			}
		})
	}
}
