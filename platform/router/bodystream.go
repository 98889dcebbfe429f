package router

import (
	"bytes"
	"compress/gzip"
	"io"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/problem"
)

// Request bodies are streamed (fiber.Config.StreamRequestBody): the
// server reads a request's headers and at most prefetchedBody bytes of its
// body before the handler runs. A request that fails authentication, its
// content type or route matching is answered without the rest of its body
// ever being read; a route that binds a body reads it once, into a buffer
// of the declared size.

// prefetchedBody is how much of a body fasthttp reads with the headers; a
// body of at most this size (and within the limit) is whole before any
// handler runs.
const prefetchedBody = 8 * 1024

// lingerTime is how long a connection whose request body was left unread
// keeps reading and discarding it after the answer, before closing: so the
// client reads the answer instead of a connection reset.
const lingerTime = 500 * time.Millisecond

// checkBody refuses, from the head alone, a body no route that declares
// one serves (refuseUndeclaredBody) and one over the server's limit
// (checkBodySize): what serve and an expectation both check.
func (r *Router) checkBody(c *fiber.Ctx) error {
	if err := r.refuseUndeclaredBody(c); err != nil {
		return err
	}
	return r.checkBodySize(c)
}

// checkBodySize answers 413 before anything else when the declared body
// is over Config.BodyLimit. Bodies sent in chunks, whose size nobody
// declares, are counted where they are read (readBody).
func (r *Router) checkBodySize(c *fiber.Ctx) error {
	if c.Request().Header.ContentLength() > r.cfg.BodyLimit {
		return fiber.ErrRequestEntityTooLarge
	}
	return nil
}

// settleBody runs when a request is answered. When part of its body is
// still unread on the connection, the connection cannot carry another
// request: it is closed after the answer, lingering first when it was
// accepted by Serve.
func (r *Router) settleBody(c *fiber.Ctx) {
	req := c.Request()
	if !req.IsBodyStream() {
		return
	}
	if prefetched(req.Header.ContentLength(), r.cfg.BodyLimit) {
		return // the connection is at the next request
	}
	c.Context().SetConnectionClose()
	if lc, ok := c.Context().Conn().(*lingerConn); ok {
		lc.linger.Store(true)
	}
}

// prefetched reports whether a body of declared length n, limit bytes at
// most, was read whole with the request's headers.
func prefetched(n, limit int) bool { return n >= 0 && n <= min(prefetchedBody, limit) }

// readBody reads the request body, at most limit bytes (413 beyond), and
// leaves it as the request's body for anything that asks after. A body of
// declared length goes into one buffer of that size (a small one is
// already in the request's pooled buffer); one sent in chunks is counted
// as it arrives. A gzipped body (gzipped) is decompressed as it is read,
// one gzip member only, and limit counts its decompressed bytes: nothing
// is ever decompressed past the limit.
func readBody(c *fiber.Ctx, limit int, gzipped bool) ([]byte, error) {
	req := c.Request()
	n := req.Header.ContentLength()
	var src io.Reader
	switch {
	case req.IsBodyStream() && !prefetched(n, limit):
		src = req.BodyStream()
	case !gzipped:
		// Whole, in the request's pooled buffer; Request.Body, unlike
		// Fiber's Ctx.Body, never decompresses.
		return req.Body(), nil
	default:
		src = bytes.NewReader(req.Body())
	}
	if gzipped {
		zr, err := gzip.NewReader(src)
		if err != nil {
			return nil, problem.New(http.StatusBadRequest, "The request body is not valid gzip.")
		}
		zr.Multistream(false)
		src = zr
		// What follows the gzip member, if anything, is left unread: the
		// connection cannot carry another request.
		c.Context().SetConnectionClose()
		n = -1
	}
	var body []byte
	if n >= 0 {
		body = make([]byte, n)
		if _, err := io.ReadFull(src, body); err != nil {
			return nil, problem.New(http.StatusBadRequest, "The request body ended before its declared length.")
		}
	} else {
		var buf bytes.Buffer
		if _, err := buf.ReadFrom(io.LimitReader(src, int64(limit)+1)); err != nil {
			return nil, problem.New(http.StatusBadRequest, "The request body could not be read.")
		}
		if buf.Len() > limit {
			return nil, tooLarge(limit)
		}
		body = buf.Bytes()
	}
	if gzipped {
		req.Header.Del(fiber.HeaderContentEncoding)
	}
	req.SetBodyRaw(body) // also ends the stream: nothing is left unread
	return body, nil
}

// lingerListener accepts connections that can close the way net/http's
// server does when it answered before reading a request body: stop
// writing, read and discard what the client is still sending for a short
// while, then close, so the client sees the answer rather than a reset.
type lingerListener struct {
	net.Listener
}

// Accept implements net.Listener.
func (l lingerListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &lingerConn{Conn: c}, nil
}

// lingerConn is a connection accepted by lingerListener.
type lingerConn struct {
	net.Conn
	// linger is set by the request being served when its body was left
	// unread; Close may run on another goroutine (a shutdown).
	linger atomic.Bool
}

// Close implements net.Conn.
func (c *lingerConn) Close() error {
	if c.linger.Swap(false) {
		if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok && cw.CloseWrite() == nil {
			if c.Conn.SetReadDeadline(time.Now().Add(lingerTime)) == nil {
				_, _ = io.Copy(io.Discard, c.Conn)
			}
		}
	}
	return c.Conn.Close()
}

// Serve serves the application on ln until Shutdown, closing connections
// whose request bodies were left unread gracefully (see lingerListener).
// Prefer it to App().Listener.
func (r *Router) Serve(ln net.Listener) error {
	return r.app.Listener(lingerListener{ln})
}
