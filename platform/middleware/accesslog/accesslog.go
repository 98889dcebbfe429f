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
func New(config ...Config) fiber.Handler { return NewLogger(config...).Handler }

// Logger writes the lines of one Config: its Handler is the middleware New
// returns, and its Log writes the line of a request answered where the
// middleware does not run (a server that refuses some requests before its
// middleware chain), so that every answer has its line.
type Logger struct {
	cfg    Config
	logger *slog.Logger
}

// NewLogger returns the Logger of config (ConfigDefault when none).
func NewLogger(config ...Config) *Logger {
	cfg := ConfigDefault
	if len(config) > 0 {
		cfg = config[0]
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.Default()
	}
	return &Logger{cfg: cfg, logger: logger}
}

// Handler is the middleware: it serves c through the handlers below it,
// then writes its line with the status c's response has.
func (l *Logger) Handler(c *fiber.Ctx) error {
	if l.cfg.Next != nil && l.cfg.Next(c) {
		return c.Next()
	}
	start := time.Now()
	err := c.Next()
	l.write(c, start)
	return err
}

// Log writes the line of c, answered already, whose request began at
// start; nothing when Config.Next skips c.
func (l *Logger) Log(c *fiber.Ctx, start time.Time) {
	if l.cfg.Next != nil && l.cfg.Next(c) {
		return
	}
	l.write(c, start)
}

// write writes the line of c.
func (l *Logger) write(c *fiber.Ctx, start time.Time) {
	var buf [8]slog.Attr
	attrs := append(buf[:0],
		slog.String("method", c.Method()),
		slog.String("path", c.Path()),
		slog.Int("status", c.Response().StatusCode()),
		slog.Float64("duration_ms", Milliseconds(time.Since(start))))
	if l.cfg.Attrs != nil {
		attrs = l.cfg.Attrs(c, attrs)
	}
	l.logger.LogAttrs(c.UserContext(), l.cfg.Level, Message, attrs...)
}

// Milliseconds is d in milliseconds, to the microsecond: the same number in
// every handler, which JSON log pipelines aggregate as it is (slog writes a
// time.Duration in nanoseconds) and text logs show as a short decimal.
func Milliseconds(d time.Duration) float64 {
	return float64(d.Microseconds()) / 1000
}
