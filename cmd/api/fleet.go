package main

import (
	"fmt"
	"net"
	"net/url"

	"github.com/asapjs/fiber-template/platform/token"
)

// fleet are the settings of a service among others (docs/fleet.md): its
// own public URL, which makes it an issuer others can trust.
type fleet struct {
	// PublicURL is the service's URL as others reach it: the iss of its
	// tokens and the base of its issuer metadata.
	PublicURL string
}

// loadFleet reads the fleet settings.
func loadFleet(cfg *config, lookupEnv func(string) (string, bool)) error {
	getenv := func(key string) string { v, _ := lookupEnv(key); return v }
	f := &cfg.Fleet
	if v := getenv("PUBLIC_URL"); v != "" {
		u, err := publicURL(v, cfg.Env == "production")
		if err != nil {
			return fmt.Errorf("PUBLIC_URL: %w", err)
		}
		f.PublicURL = u
	}
	return nil
}

// publicURL checks an issuer URL: production takes only https, but for a
// loopback host (a test, or a proxy on the same machine).
func publicURL(v string, production bool) (string, error) {
	s, err := token.IssuerURL(v)
	if err != nil {
		return "", fmt.Errorf("%q: %w", v, err)
	}
	u, _ := url.Parse(s)
	if production && u.Scheme != "https" && !loopback(u.Hostname()) {
		return "", fmt.Errorf("%q: production takes an https URL", v)
	}
	return s, nil
}

// loopback reports whether host is localhost or a loopback address.
func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
