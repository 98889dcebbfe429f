package servicetest

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
)

// shutdownWait bounds each step of stopping a test server: draining its
// connections, then waiting for its serve loop to return.
const shutdownWait = 10 * time.Second

// Serve runs app on a free loopback port until t ends and returns its base
// URL, http://127.0.0.1:port. It is for what only a real connection shows;
// app.Test covers the rest.
//
// Stopping can never hang: fasthttp's Shutdown misses a listener its Serve
// has not registered yet, so the listener is also closed here, which ends
// Serve whenever it starts, and every wait is bounded.
func Serve(t testing.TB, app *fiber.App) string {
	t.Helper()
	return ServeWith(t, app, app.Listener)
}

// ServeWith is Serve with the function that serves app on a listener, such
// as a router's Serve.
func ServeWith(t testing.TB, app *fiber.App, serve func(net.Listener) error) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("servicetest: listen: %v", err)
	}
	// A connection a client opened and never used (a browser's
	// preconnect) is not idle to fasthttp, so Shutdown waits for it: an
	// app without timeouts of its own gets some shorter than the wait.
	if srv := app.Server(); srv.ReadTimeout == 0 && srv.IdleTimeout == 0 {
		srv.ReadTimeout, srv.IdleTimeout = shutdownWait/2, shutdownWait/2
	}
	served := make(chan error, 1)
	go func() { served <- serve(ln) }()
	t.Cleanup(func() { stop(t, app, ln, served) })
	return "http://" + ln.Addr().String()
}

// stop shuts app down within bounded waits, reporting a server that does
// not stop as a test error rather than hanging.
func stop(t testing.TB, app *fiber.App, ln net.Listener, served <-chan error) {
	ctx, cancel := context.WithTimeout(context.Background(), shutdownWait)
	defer cancel()
	if err := app.ShutdownWithContext(ctx); err != nil {
		t.Errorf("servicetest: shutdown: %v", err)
	}
	_ = ln.Close() // already closed by a Serve that had started
	select {
	case err := <-served:
		if err != nil && !errors.Is(err, net.ErrClosed) {
			t.Errorf("servicetest: serve: %v", err)
		}
	case <-time.After(shutdownWait):
		t.Errorf("servicetest: the server did not stop within %s", shutdownWait)
	}
}
