// Package secure sets the security headers an HTTP API answers with, in the
// shape of Fiber's middleware (Config, ConfigDefault, New): the ones the
// OWASP REST Security Cheat Sheet asks of an API, and no more, so every
// answer, errors included, carries them at the cost of four header writes.
// (Fiber's helmet sets eleven, most of them for HTML documents.)
package secure

import (
	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"
)

// Config configures the middleware; an empty value leaves its header out.
type Config struct {
	// Next skips the middleware when it returns true. Default: nil.
	Next func(c *fiber.Ctx) bool
	// ContentTypeOptions forbids sniffing another media type than the one
	// the answer declares. Default: "nosniff".
	ContentTypeOptions string
	// FrameOptions is the X-Frame-Options header, which forbids framing
	// the answers (clickjacking). Default: "DENY".
	FrameOptions string
	// ContentSecurityPolicy is the Content-Security-Policy header, which
	// forbids framing them too. Default: "frame-ancestors 'none'".
	ContentSecurityPolicy string
	// ReferrerPolicy keeps URLs, which may carry cursors and filters, out
	// of Referer headers. Default: "no-referrer".
	ReferrerPolicy string
}

// ConfigDefault is the default configuration.
var ConfigDefault = Config{
	ContentTypeOptions:    "nosniff",
	FrameOptions:          "DENY",
	ContentSecurityPolicy: "frame-ancestors 'none'",
	ReferrerPolicy:        "no-referrer",
}

// New returns the middleware; without a Config it uses ConfigDefault.
func New(config ...Config) fiber.Handler {
	cfg := ConfigDefault
	if len(config) > 0 {
		cfg = config[0]
	}
	set := canonical(headersOf(cfg))
	return func(c *fiber.Ctx) error {
		if cfg.Next != nil && cfg.Next(c) {
			return c.Next()
		}
		for _, h := range set {
			c.Response().Header.SetCanonical(h.name, h.value)
		}
		return c.Next()
	}
}

// Set writes the headers of ConfigDefault on an answer written outside the
// middleware chain, which New does not reach.
func Set(c *fiber.Ctx) {
	for _, h := range headersOf(ConfigDefault) {
		c.Response().Header.Set(h[0], h[1])
	}
}

// field is a header as fasthttp keeps it, its name normalized, so that
// setting it on every answer copies it and nothing more.
type field struct{ name, value []byte }

// canonical turns headers into fields.
func canonical(headers [][2]string) []field {
	fields := make([]field, len(headers))
	for i, h := range headers {
		fields[i] = field{fasthttp.AppendNormalizedHeaderKey(nil, h[0]), []byte(h[1])}
	}
	return fields
}

// headersOf lists the headers cfg sets, by name and value.
func headersOf(cfg Config) [][2]string {
	headers := [][2]string{
		{fiber.HeaderXContentTypeOptions, cfg.ContentTypeOptions},
		{fiber.HeaderXFrameOptions, cfg.FrameOptions},
		{fiber.HeaderContentSecurityPolicy, cfg.ContentSecurityPolicy},
		{fiber.HeaderReferrerPolicy, cfg.ReferrerPolicy},
	}
	set := headers[:0]
	for _, h := range headers {
		if h[1] != "" {
			set = append(set, h)
		}
	}
	return set
}
