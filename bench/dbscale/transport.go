package dbscale

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"
)

// Transports of a run (BENCH_TRANSPORT).
const (
	// transportHandler calls every implementation in process: the service
	// and raw pgx on Fiber on the handler path, raw pgx directly. Nothing
	// of HTTP's cost hides a difference.
	transportHandler = "handler"
	// transportHTTP serves every implementation on a loopback port and
	// loads it over keep-alive connections: the service and raw pgx on
	// Fiber on their Fiber listeners, raw pgx (and today's strategy) on
	// net/http, as the paging issue measured it.
	transportHTTP = "http"
	// transportProcess serves every implementation as transportHTTP does,
	// each from a child process of its own (the test binary again), so
	// that none shares its CPU, heap or collector with the load or with
	// another, and measures the CPU time each child spends per request.
	transportProcess = "process"
)

// rawHandler serves a raw list on net/http: the scenario parsed from the
// query, the list, the JSON.
func rawHandler(r *rawList) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		s, err := scenarioOf(req.URL.Query().Get)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		body, err := r.list(req.Context(), s)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	})
}

// rawFiber is a raw list on a bare Fiber app: the same handler on Fiber.
func rawFiber(r *rawList) *fiber.App {
	app := fiber.New(fiber.Config{DisableStartupMessage: true})
	app.Get("/api/users", func(c *fiber.Ctx) error {
		s, err := scenarioOf(func(key string) string { return c.Query(key) })
		if err != nil {
			return fiber.NewError(fiber.StatusBadRequest, err.Error())
		}
		body, err := r.list(c.UserContext(), s)
		if err != nil {
			return err
		}
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
		return c.Send(body)
	})
	return app
}

// remote is an implementation listening on a loopback port, and the
// client that loads it with up to workers connections.
type remote struct {
	base          string
	authorization string
	client        *fasthttp.HostClient
}

// listen serves app, a *fiber.App or an http.Handler, on a loopback port
// until the returned stop.
func listen(app any, authorization string, workers int) (*remote, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, nil, err
	}
	var stop func()
	switch a := app.(type) {
	case *fiber.App:
		go func() { _ = a.Listener(ln) }()
		stop = func() { _ = a.ShutdownWithTimeout(5 * time.Second) }
	case http.Handler:
		srv := &http.Server{Handler: a, ReadHeaderTimeout: 10 * time.Second}
		go func() { _ = srv.Serve(ln) }()
		stop = func() { _ = srv.Close() }
	default:
		ln.Close()
		return nil, nil, fmt.Errorf("cannot serve a %T", app)
	}
	return newRemote(ln.Addr().String(), authorization, workers), stop, nil
}

// newRemote is the client of an implementation listening on addr.
func newRemote(addr, authorization string, workers int) *remote {
	return &remote{base: "http://" + addr, authorization: authorization,
		client: &fasthttp.HostClient{Addr: addr, MaxConns: workers, ReadBufferSize: 16 << 10}}
}

// get sends GET path and reads the answer in full; anything but a 200 is
// an error.
func (r *remote) get(_ context.Context, _ int, path string) ([]byte, error) {
	req, res := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(res)
	req.SetRequestURI(r.base + path)
	if r.authorization != "" {
		req.Header.Set(fiber.HeaderAuthorization, r.authorization)
	}
	if err := r.client.Do(req, res); err != nil {
		return nil, err
	}
	if res.StatusCode() != http.StatusOK {
		return nil, fmt.Errorf("GET %s: status %d: %s", path, res.StatusCode(), res.Body())
	}
	if len(res.Body()) == 0 {
		return nil, errors.New("GET " + path + ": empty body")
	}
	return nil, nil
}
