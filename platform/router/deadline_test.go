package router_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/asapjs/fiber-template/platform/router"
)

// errDown stands for the error of a dependency that cannot be reached.
var errDown = errors.New("dependency refused the connection")

// downDetector is an extension that recognises errDown as an outage.
type downDetector struct{}

func (downDetector) Name() string          { return "dependency" }
func (downDetector) Outage(err error) bool { return errors.Is(err, errDown) }

type deadlineAnswer struct {
	Left string `json:"left"`
}

func TestRequestDeadline(t *testing.T) {
	t.Parallel()
	const timeout = 300 * time.Millisecond
	routes := router.Group{Path: "/t", Name: "Test", Declared: []router.Route{
		router.Get("/deadline", func(c *router.Ctx, _ *struct{}) (*deadlineAnswer, error) {
			dl, ok := c.Context().Deadline()
			if !ok {
				return nil, errors.New("the request context has no deadline")
			}
			return &deadlineAnswer{Left: time.Until(dl).String()}, nil
		}),
		router.Get("/wait", func(c *router.Ctx, _ *struct{}) (*deadlineAnswer, error) {
			<-c.Context().Done() // a dependency that never answers
			return nil, c.Context().Err()
		}),
		router.Get("/down", func(c *router.Ctx, _ *struct{}) (*deadlineAnswer, error) {
			return nil, errDown
		}),
		router.Get("/broken", func(c *router.Ctx, _ *struct{}) (*deadlineAnswer, error) {
			return nil, errors.New("a bug")
		}),
	}}
	for _, logRequests := range []bool{false, true} {
		r := newRouter(t, router.Config{
			Controllers:    []router.Controller{routes},
			Extensions:     []router.Extension{downDetector{}},
			RequestTimeout: timeout,
			RetryAfter:     7 * time.Second,
			LogRequests:    logRequests,
		})
		name := " (request log " + strconv.FormatBool(logRequests) + ")"

		t.Run("a handler's context has the request timeout as its deadline"+name, func(t *testing.T) {
			t.Parallel()
			res, body := get(t, r, "/t/deadline")
			if res.StatusCode != http.StatusOK {
				t.Fatalf("status %d: %s", res.StatusCode, body)
			}
			left, err := time.ParseDuration(decode[deadlineAnswer](t, body).Left)
			if err != nil || left <= 0 || left > timeout {
				t.Errorf("deadline %s ahead, want within (0, %s]", left, timeout)
			}
		})

		t.Run("a request that runs out of time answers 503 with Retry-After"+name, func(t *testing.T) {
			t.Parallel()
			begun := time.Now()
			res, body := get(t, r, "/t/wait")
			took := time.Since(begun)
			p := wantProblem(t, res, body, http.StatusServiceUnavailable)
			if p.Code != "request_timeout" {
				t.Errorf("code %q, want request_timeout", p.Code)
			}
			if got := res.Header.Get("Retry-After"); got != "7" {
				t.Errorf("Retry-After %q, want 7", got)
			}
			if took < timeout {
				t.Errorf("answered after %s, before the %s deadline", took, timeout)
			}
		})

		t.Run("an outage an extension recognises answers 503 with Retry-After"+name, func(t *testing.T) {
			t.Parallel()
			res, body := get(t, r, "/t/down")
			p := wantProblem(t, res, body, http.StatusServiceUnavailable)
			if p.Code != "service_unavailable" {
				t.Errorf("code %q, want service_unavailable", p.Code)
			}
			if res.Header.Get("Retry-After") != "7" {
				t.Errorf("Retry-After %q, want 7", res.Header.Get("Retry-After"))
			}
		})

		t.Run("any other error stays a 500 without Retry-After"+name, func(t *testing.T) {
			t.Parallel()
			res, body := get(t, r, "/t/broken")
			wantProblem(t, res, body, http.StatusInternalServerError)
			if h := res.Header.Get("Retry-After"); h != "" {
				t.Errorf("Retry-After %q on a 500", h)
			}
		})
	}
}

func TestRequestDeadlineDefault(t *testing.T) {
	t.Parallel()
	var left time.Duration
	routes := router.Group{Path: "/t", Name: "Test", Declared: []router.Route{
		router.Get("/", func(c *router.Ctx, _ *struct{}) (*router.NoContent, error) {
			dl, _ := c.Context().Deadline()
			left = time.Until(dl)
			return nil, nil
		}),
	}}
	r := newRouter(t, router.Config{Controllers: []router.Controller{routes}})
	do(t, r, httptest.NewRequest(http.MethodGet, "/t", nil).WithContext(context.Background()))
	if left <= 9*time.Second || left > 10*time.Second {
		t.Errorf("deadline %s ahead, want the 10s default", left)
	}
}
