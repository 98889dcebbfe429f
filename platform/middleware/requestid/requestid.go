// Package requestid gives every request an id, in the shape of Fiber's
// middleware (Config, ConfigDefault, New): the caller's X-Request-ID when it
// is safe to log and echo, else a new one, set on the response where From
// reads it back.
//
// It differs from Fiber's own requestid middleware in two ways that matter
// at the edge: an incoming id is taken only when it is short and made of
// letters, digits and -_.: (so no client can put a line break or a
// megabyte into the logs), and a new id is a per-process random prefix and a
// counter, unique across restarts and made without an allocation.
package requestid

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strconv"
	"sync/atomic"

	"github.com/gofiber/fiber/v2"
)

// Config configures the middleware.
type Config struct {
	// Next skips the middleware when it returns true. Default: nil.
	Next func(c *fiber.Ctx) bool
	// Header is the request and response header of the id. Default:
	// X-Request-ID.
	Header string
	// Generator appends a new id to dst. Default: NewGenerator's, made
	// once by New.
	Generator func(dst []byte) []byte
}

// ConfigDefault is the default configuration; its Generator is made by New.
var ConfigDefault = Config{Header: fiber.HeaderXRequestID}

// MaxLength is the longest incoming id that is kept.
const MaxLength = 64

// New returns the middleware, or an error when the random prefix of the
// default generator cannot be made.
func New(config ...Config) (fiber.Handler, error) {
	cfg := ConfigDefault
	if len(config) > 0 {
		cfg = config[0]
	}
	if cfg.Header == "" {
		cfg.Header = ConfigDefault.Header
	}
	if cfg.Generator == nil {
		var err error
		if cfg.Generator, err = NewGenerator(); err != nil {
			return nil, err
		}
	}
	return func(c *fiber.Ctx) error {
		if cfg.Next != nil && cfg.Next(c) {
			return c.Next()
		}
		if in := c.Request().Header.Peek(cfg.Header); Valid(in) {
			c.Response().Header.SetBytesV(cfg.Header, in)
		} else {
			// On the stack: the header copies it.
			var buf [40]byte
			c.Response().Header.SetBytesV(cfg.Header, cfg.Generator(buf[:0]))
		}
		return c.Next()
	}, nil
}

// NewGenerator returns the default generator of ids: a random prefix of
// its own and a counter, unique across restarts, appended to dst without
// an allocation. It fails when the prefix cannot be made.
func NewGenerator() (func(dst []byte) []byte, error) {
	ids, err := newCounter()
	if err != nil {
		return nil, err
	}
	return ids.append, nil
}

// From returns the id the middleware gave the request, read from the
// response header of the default configuration.
func From(c *fiber.Ctx) string {
	return string(c.Response().Header.Peek(ConfigDefault.Header))
}

// Valid reports whether an incoming id is safe to log and echo: 1 to
// MaxLength bytes of letters, digits and -_.:
func Valid(id []byte) bool {
	if len(id) == 0 || len(id) > MaxLength {
		return false
	}
	for _, c := range id {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '_', c == '.', c == ':':
		default:
			return false
		}
	}
	return true
}

// counter makes the default ids: a random prefix and a counter, both its
// own.
type counter struct {
	prefix string
	n      atomic.Uint64
}

// newCounter returns a counter with a new random prefix.
func newCounter() (*counter, error) {
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		return nil, fmt.Errorf("requestid: random prefix: %w", err)
	}
	return &counter{prefix: hex.EncodeToString(b) + "-"}, nil
}

// append appends a new id to dst.
func (g *counter) append(dst []byte) []byte {
	dst = append(dst, g.prefix...)
	return strconv.AppendUint(dst, g.n.Add(1), 10)
}
