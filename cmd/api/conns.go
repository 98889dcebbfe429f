package main

import (
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"time"

	"github.com/asapjs/fiber-template/platform/connlimit"
	"github.com/asapjs/fiber-template/platform/router"
)

// conns are the bounds of the connections to the service's port.
type conns struct {
	// Max caps the connections open at once; 0 derives it from the
	// open-files limit (connlimit.DefaultLimits).
	Max int
	// PerAddress caps those of one client address; 0 is an eighth of
	// Max. Trusted proxies count only against Max.
	PerAddress int
	// ReadHeaderTimeout bounds reading a request's line and headers.
	ReadHeaderTimeout time.Duration
}

// loadConns reads MAX_CONNS, MAX_CONNS_PER_ADDRESS and READ_HEADER_TIMEOUT.
func loadConns(cfg *config, lookupEnv func(string) (string, bool)) error {
	c := &cfg.Conns
	var err error
	if c.Max, err = optionalCount("MAX_CONNS", envOr(lookupEnv, "MAX_CONNS", "")); err != nil {
		return err
	}
	if c.PerAddress, err = optionalCount("MAX_CONNS_PER_ADDRESS", envOr(lookupEnv, "MAX_CONNS_PER_ADDRESS", "")); err != nil {
		return err
	}
	if c.Max > 0 && c.PerAddress > c.Max {
		return fmt.Errorf("MAX_CONNS_PER_ADDRESS (%d) must not exceed MAX_CONNS (%d)", c.PerAddress, c.Max)
	}
	c.ReadHeaderTimeout, err = positiveDuration("READ_HEADER_TIMEOUT", envOr(lookupEnv, "READ_HEADER_TIMEOUT", router.DefaultReadHeaderTimeout.String()))
	return err
}

// optionalCount parses the value of the variable key: empty is 0 (derived),
// else a whole number above zero.
func optionalCount(key, value string) (int, error) {
	if value == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(value)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%s must be a whole number above 0, or empty to derive it from the open-files limit, got %q", key, value)
	}
	return n, nil
}

// limitConns wraps the service's listener in the connection caps, and
// warns when the total leaves the process too few files of its own: past
// the open-files limit accept waits for files to close, and connections
// from every address wait with it.
func limitConns(tcp net.Listener, cfg config, logger *slog.Logger) (*connlimit.Listener, error) {
	ln, err := connlimit.New(tcp, connlimit.Config{
		Total:          cfg.Conns.Max,
		PerAddress:     cfg.Conns.PerAddress,
		TrustedProxies: cfg.TrustedProxies,
		Logger:         logger,
	})
	if err != nil {
		return nil, err
	}
	total, _ := ln.Limits()
	if files := connlimit.OpenFilesLimit(); files > 0 && uint64(total) >= files {
		logger.Warn("MAX_CONNS is not under the open-files limit: at the limit, accept waits until files close, for every client; lower MAX_CONNS or raise the limit (ulimit -n)",
			slog.Int("max_conns", total), slog.Uint64("open_files", files))
	}
	return ln, nil
}
