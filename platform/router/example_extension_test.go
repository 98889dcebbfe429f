package router_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http/httptest"
	"sync/atomic"

	"github.com/asapjs/fiber-template/platform/router"
)

// errQueueDown is the error of a message queue that cannot take messages.
var errQueueDown = errors.New("queue: connection refused")

// queueExtension plugs a message queue into the router: it is a
// ReadinessChecker (GET /readyz waits for its connection) and an
// OutageDetector (its outage errors are a 503 on every route, not a 500).
type queueExtension struct{ connected atomic.Bool }

func (q *queueExtension) Name() string { return "queue" }

func (q *queueExtension) CheckReady(context.Context) error {
	if !q.connected.Load() {
		return errors.New("not connected yet")
	}
	return nil
}

func (q *queueExtension) Outage(err error) bool { return errors.Is(err, errQueueDown) }

// An extension is a value in Config.Extensions that implements the small
// interfaces of what it offers; the router asks each at start-up.
func ExampleExtension() {
	queue := &queueExtension{}
	r, err := router.New(router.Config{
		Extensions: []router.Extension{queue},
		Controllers: []router.Controller{router.Group{Path: "/events", Declared: []router.Route{
			router.Post("/", func(*router.Ctx, *struct{}) (*router.NoContent, error) {
				return nil, fmt.Errorf("publish: %w", errQueueDown)
			}, router.Status(204)),
		}}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	send := func(method, target string) {
		resp, _ := r.App().Test(httptest.NewRequest(method, target, nil), -1)
		body, _ := io.ReadAll(resp.Body)
		fmt.Printf("%s %s %d Retry-After=%q %s\n", method, target, resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
	send("GET", "/readyz")
	queue.connected.Store(true)
	send("GET", "/readyz")
	send("POST", "/events")
	// Output:
	// GET /readyz 503 Retry-After="5" {"type":"urn:problem-type:not_ready","title":"Not ready","status":503,"detail":"The queue extension is not ready.","code":"not_ready"}
	// GET /readyz 200 Retry-After="" {"status":"ok"}
	// POST /events 503 Retry-After="5" {"type":"urn:problem-type:service_unavailable","title":"Service unavailable","status":503,"detail":"A service this request needs cannot be reached; retry later.","code":"service_unavailable"}
}
