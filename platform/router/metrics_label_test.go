package router_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/asapjs/fiber-template/platform/router"
)

// TestRequestsAreCountedByTheirMethod: http_requests_total names each
// request by its own method.
func TestRequestsAreCountedByTheirMethod(t *testing.T) {
	t.Parallel()
	reg := prometheus.NewRegistry()
	ok := func(*router.Ctx, *struct{}) (*router.NoContent, error) { return nil, nil }
	r := newRouter(t, router.Config{Metrics: reg, Controllers: []router.Controller{router.Group{Path: "/m", Declared: []router.Route{
		router.Get("/", ok), router.Delete("/", ok),
	}}}})
	for _, method := range []string{http.MethodGet, http.MethodDelete, http.MethodDelete} {
		do(t, r, httptest.NewRequest(method, "/m", nil))
	}
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	counted := map[string]float64{}
	for _, f := range families {
		if f.GetName() != "http_requests_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "method" {
					counted[l.GetValue()] += m.GetCounter().GetValue()
				}
			}
		}
	}
	if counted["GET"] != 1 || counted["DELETE"] != 2 || len(counted) != 2 {
		t.Errorf("requests counted by method %v; want GET 1 and DELETE 2", counted)
	}
}
