// Package accesslog writes one log/slog line per answered request, in the
// shape of Fiber's middleware (Config, ConfigDefault, New): method, path,
// status, duration_ms and whatever the configuration adds (a request id, a
// trace id).
//
// Put it above the middleware that answers errors, so the status it logs
// is the one the client got.
package accesslog

import (
	"log/slog"
	"time"

	"github.com/gofiber/fiber/v2"
)

// Config configures the middleware.
type Config struct {
	// Next skips the middleware when it returns true. Default: nil.
	Next func(c *fiber.Ctx) bool
	// Logger receives the lines, at Level. Default: slog.Default().
	Logger *slog.Logger
	// Level is the level of the lines. Default: slog.LevelInfo.
	Level slog.Level
	// Attrs appends the request's own attributes to the line (a request
	// id, a trace id). Default: nil.
	Attrs func(c *fiber.Ctx, attrs []slog.Attr) []slog.Attr
}

// ConfigDefault is the default configuration.
var ConfigDefault = Config{Level: slog.LevelInfo}

// Message is the message of every line.
const Message = "request"

// New returns the middleware.
func New(config ...Config) fiber.Handler {
	cfg := ConfigDefault
	if len(config) > 0 {
		cfg = config[0]
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.Default()
	}
	return func(c *fiber.Ctx) error {
		if cfg.Next != nil && cfg.Next(c) {
			return c.Next()
		}
		start := time.Now()
		err := c.Next()
		var buf [8]slog.Attr
		attrs := append(buf[:0],
			slog.String("method", c.Method()),
			slog.String("path", c.Path()),
			slog.Int("status", c.Response().StatusCode()),
			slog.Float64("duration_ms", Milliseconds(time.Since(start))))
		if cfg.Attrs != nil {
			attrs = cfg.Attrs(c, attrs)
		}
		logger.LogAttrs(c.UserContext(), cfg.Level, Message, attrs...)
		return err
	}
}

// Milliseconds is d in milliseconds, to the microsecond: the same number in
// every handler, which JSON log pipelines aggregate as it is (slog writes a
// time.Duration in nanoseconds) and text logs show as a short decimal.
func Milliseconds(d time.Duration) float64 {
	return float64(d.Microseconds()) / 1000
}
