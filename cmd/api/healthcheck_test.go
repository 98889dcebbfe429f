package main

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

func TestHealthcheck(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		status  int
		wantErr string
	}{
		{"a healthy server passes", http.StatusOK, ""},
		{"a server whose database is down fails", http.StatusServiceUnavailable, "503"},
		{"a server without the endpoint fails", http.StatusNotFound, "404"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var path string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				path = r.URL.Path
				w.WriteHeader(tt.status)
			}))
			defer srv.Close()

			err := healthcheck(context.Background(), config{Host: "0.0.0.0", Port: portOf(t, srv.Listener.Addr())})
			if path != "/health-check" {
				t.Errorf("probe asked for %q, want /health-check", path)
			}
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("healthcheck: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("healthcheck error = %v, want one containing %q", err, tt.wantErr)
			}
		})
	}

	t.Run("nothing listening fails", func(t *testing.T) {
		t.Parallel()
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := portOf(t, ln.Addr())
		ln.Close()
		if err := healthcheck(context.Background(), config{Host: "127.0.0.1", Port: port}); err == nil {
			t.Error("healthcheck passed with nothing listening")
		}
	})
}

func TestProbeHost(t *testing.T) {
	t.Parallel()
	for host, want := range map[string]string{
		"":          "127.0.0.1",
		"0.0.0.0":   "127.0.0.1",
		"::":        "127.0.0.1",
		"127.0.0.1": "127.0.0.1",
		"10.1.2.3":  "10.1.2.3",
		"localhost": "localhost",
	} {
		if got := probeHost(host); got != want {
			t.Errorf("probeHost(%q) = %q, want %q", host, got, want)
		}
	}
}

func portOf(t *testing.T, addr net.Addr) int {
	t.Helper()
	_, p, err := net.SplitHostPort(addr.String())
	if err != nil {
		t.Fatal(err)
	}
	port, err := strconv.Atoi(p)
	if err != nil {
		t.Fatal(err)
	}
	return port
}
