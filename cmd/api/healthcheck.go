package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"
)

// healthcheckTimeout bounds the whole probe. A container runtime runs the
// probe every few seconds and has its own timeout; the probe must give up
// first so that a hung server reads as unhealthy, not as a hung probe.
const healthcheckTimeout = 3 * time.Second

// healthcheck asks the service listening on cfg.Port of this host for
// GET /health-check and fails unless it answers 200. It exists because the
// container image has no shell and no curl: the image's HEALTHCHECK runs
// "api healthcheck" instead.
func healthcheck(ctx context.Context, cfg config) error {
	ctx, cancel := context.WithTimeout(ctx, healthcheckTimeout)
	defer cancel()
	url := "http://" + net.JoinHostPort(probeHost(cfg.Host), strconv.Itoa(cfg.Port)) + "/health-check"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	// A probe of the local server must not go through a proxy from the
	// environment.
	client := &http.Client{Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true}}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("healthcheck: GET %s answered %s", url, resp.Status)
	}
	return nil
}

// probeHost is the address to reach a server listening on host: a
// wildcard listen address is reached through the loopback interface.
func probeHost(host string) string {
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		return "127.0.0.1"
	}
	return host
}
