package router

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v2"
)

// requestIDs makes request ids: a random prefix per process and a counter,
// unique across restarts and cheap to make.
type requestIDs struct {
	prefix string
	n      atomic.Uint64
}

func newRequestIDs() (*requestIDs, error) {
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		return nil, fmt.Errorf("router: request id prefix: %w", err)
	}
	return &requestIDs{prefix: hex.EncodeToString(b) + "-"}, nil
}

// appendNext appends a new id to b.
func (g *requestIDs) appendNext(b []byte) []byte {
	b = append(b, g.prefix...)
	return strconv.AppendUint(b, g.n.Add(1), 10)
}

// validRequestID accepts an incoming X-Request-ID that is safe to log and
// echo: short, and only letters, digits and -_.:
func validRequestID(id []byte) bool {
	if len(id) == 0 || len(id) > 64 {
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

// requestScope is the first middleware: it gives the request an id (the
// caller's X-Request-ID when it is safe, else a new one) in the response
// header, where requestID reads it back, and turns a panic anywhere below
// into an error that the error handler answers as a 500, after logging the
// panic and its stack with the id; with Config.LogRequests it also writes
// the request log line, with the status the client gets. One handler keeps
// the chain short, and the id costs no allocation.
func (r *Router) requestScope(c *fiber.Ctx) (err error) {
	// No response may be sniffed into another media type than it says.
	c.Response().Header.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	if in := c.Request().Header.Peek(fiber.HeaderXRequestID); validRequestID(in) {
		c.Response().Header.SetBytesV(fiber.HeaderXRequestID, in)
	} else {
		var buf [40]byte
		c.Response().Header.SetBytesV(fiber.HeaderXRequestID, r.ids.appendNext(buf[:0]))
	}
	// A request framed two ways is refused before anything reads it.
	if err := checkFraming(c); err != nil {
		return err
	}
	defer r.settleBody(c)
	if r.cfg.LogRequests {
		defer r.logRequest(c, time.Now())
	}
	defer func() {
		if e := recover(); e != nil {
			r.cfg.Logger.Error("panic in handler",
				slog.String("request_id", requestID(c)),
				slog.String("method", c.Method()),
				slog.String("path", c.Path()),
				slog.String("panic", fmt.Sprint(e)),
				slog.String("stack", string(debug.Stack())))
			err = fmt.Errorf("panic: %v", e)
		}
		if err != nil && r.cfg.LogRequests {
			// Answer the error here, so the request log sees the status
			// the client gets.
			err = r.handleError(c, err)
		}
	}()
	if err := r.checkBodySize(c); err != nil {
		return err
	}
	return c.Next()
}

// logRequest writes the request log line of a finished request. Its
// duration is duration_ms, a number of milliseconds, the same in every
// handler: JSON logs get a number that log pipelines aggregate as it is,
// rather than slog's nanoseconds, and text logs a short decimal.
func (r *Router) logRequest(c *fiber.Ctx, start time.Time) {
	attrs := [6]slog.Attr{
		slog.String("method", c.Method()),
		slog.String("path", c.Path()),
		slog.Int("status", c.Response().StatusCode()),
		slog.Float64("duration_ms", milliseconds(time.Since(start))),
		slog.String("request_id", requestID(c)),
	}
	n := 5
	if id := traceID(c); id != "" {
		attrs[n] = slog.String("trace_id", id)
		n++
	}
	r.cfg.Logger.LogAttrs(c.UserContext(), slog.LevelInfo, "request", attrs[:n]...)
}

// milliseconds is d in milliseconds, to the microsecond.
func milliseconds(d time.Duration) float64 {
	return float64(d.Microseconds()) / 1000
}

// requestID returns the id requestScope gave the request.
func requestID(c *fiber.Ctx) string {
	return string(c.Response().Header.Peek(fiber.HeaderXRequestID))
}
