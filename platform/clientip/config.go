package clientip

import "github.com/gofiber/fiber/v2"

// Config configures New.
type Config struct {
	// TrustedProxies lists the proxies, as IP addresses or CIDR ranges
	// ("10.0.0.0/8", "2001:db8::/32", "127.0.0.1"), whose Header is
	// believed. With none, Header is ignored and the TCP peer is the
	// client: any client could write the header itself.
	//
	// Optional. Default: nil (trust no proxy)
	TrustedProxies []string
	// Header is the request header a trusted proxy appends the address of
	// its own peer to, as a comma-separated list; every line of it counts.
	//
	// Optional. Default: "X-Forwarded-For"
	Header string
}

// ConfigDefault is the default configuration: no proxy is trusted.
var ConfigDefault = Config{
	Header: fiber.HeaderXForwardedFor,
}

// configDefault fills the zero fields of cfg with their defaults.
func configDefault(cfg Config) Config {
	if cfg.Header == "" {
		cfg.Header = ConfigDefault.Header
	}
	return cfg
}
