package router_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/asapjs/fiber-template/platform/paging"
	"github.com/asapjs/fiber-template/platform/problem"
	"github.com/asapjs/fiber-template/platform/router"
	"github.com/asapjs/fiber-template/platform/servicetest"
)

// TestErrorsAreAnsweredInOnePlace returns each kind of error from a handler,
// with the request log and the metrics on and off: the answer is the same
// problem every time, and the log line and the counted status are the
// answer's.
func TestErrorsAreAnsweredInOnePlace(t *testing.T) {
	t.Parallel()
	declared := problem.Declare(http.StatusConflict, "thing_taken", "Thing taken")
	kinds := []struct {
		name   string
		fail   func() error
		status int
		field  string
	}{
		{"declared error", func() error { return declared }, http.StatusConflict, ""},
		{"problem", func() error { return problem.New(http.StatusTeapot, "short and stout") }, http.StatusTeapot, ""},
		{"paging field error, wrapped", func() error { return fmt.Errorf("list: %w", paging.ErrCursorInvalid) }, http.StatusBadRequest, "cursor"},
		{"Fiber error", func() error { return fiber.ErrNotFound }, http.StatusNotFound, ""},
		{"deadline", func() error { return fmt.Errorf("query: %w", context.DeadlineExceeded) }, http.StatusServiceUnavailable, ""},
		{"plain error", func() error { return errors.New("disk on fire") }, http.StatusInternalServerError, ""},
		{"panic", func() error { panic("unreachable state") }, http.StatusInternalServerError, ""},
	}
	for _, logRequests := range []bool{false, true} {
		for _, metrics := range []bool{false, true} {
			logs := &servicetest.Buffer{}
			reg := prometheus.NewRegistry()
			cfg := router.Config{LogRequests: logRequests, Logger: slog.New(slog.NewTextHandler(logs, nil))}
			if metrics {
				cfg.Metrics = reg
			}
			var routes []router.Route
			for i, k := range kinds {
				routes = append(routes, router.Get("/"+strconv.Itoa(i), func(*router.Ctx, *struct{}) (*thing, error) {
					return nil, k.fail()
				}))
			}
			cfg.Controllers = []router.Controller{router.Group{Path: "/e", Declared: routes}}
			r := newRouter(t, cfg)
			for i, k := range kinds {
				name := fmt.Sprintf("%s, request log %t, metrics %t", k.name, logRequests, metrics)
				path := "/e/" + strconv.Itoa(i)
				resp, body := get(t, r, path)
				p := wantProblem(t, resp, body, k.status)
				if k.field != "" {
					wantField(t, p, k.field)
				}
				if k.status == http.StatusServiceUnavailable && resp.Header.Get("Retry-After") == "" {
					t.Errorf("%s: a 503 without Retry-After", name)
				}
				if strings.Contains(string(body), "disk on fire") || strings.Contains(string(body), "unreachable state") {
					t.Errorf("%s: the cause reached the client: %s", name, body)
				}
				if logRequests {
					want := "path=" + path + " status=" + strconv.Itoa(k.status)
					if !strings.Contains(logs.String(), want) {
						t.Errorf("%s: no request log line with %q in\n%s", name, want, logs.String())
					}
				}
				if metrics && countedStatus(t, reg, path) != strconv.Itoa(k.status) {
					t.Errorf("%s: counted status %q, answered %d", name, countedStatus(t, reg, path), k.status)
				}
			}
		}
	}
}

// countedStatus returns the status label of the request counted on route
// path, or "".
func countedStatus(t *testing.T, reg *prometheus.Registry, path string) string {
	t.Helper()
	for _, s := range requestSeries(t, reg) {
		if s.labels["route"] == path {
			return s.labels["status"]
		}
	}
	return ""
}

// series is one series of http_requests_total: its labels and its count.
type series struct {
	labels map[string]string
	count  float64
}

// requestSeries returns the series of http_requests_total in reg.
func requestSeries(t *testing.T, reg *prometheus.Registry) []series {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var all []series
	for _, f := range families {
		if f.GetName() != "http_requests_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			all = append(all, series{labels: labels, count: m.GetCounter().GetValue()})
		}
	}
	return all
}
