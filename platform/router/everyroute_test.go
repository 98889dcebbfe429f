package router_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/openapi"
	"github.com/asapjs/fiber-template/platform/problem"
	"github.com/asapjs/fiber-template/platform/router"
)

// TestMiddlewareErrorsAreDeclaredOnceForEveryRoute: an error of the user
// middleware, declared once in Config.MiddlewareErrors, is documented on
// every route (none of which declares it) and answered as its problem.
func TestMiddlewareErrorsAreDeclaredOnceForEveryRoute(t *testing.T) {
	t.Parallel()
	errNoTenant := problem.Declare(http.StatusBadRequest, "tenant_required", "Tenant required")
	tenant := func(c *fiber.Ctx) error {
		if c.Get("X-Tenant") == "" {
			return errNoTenant.WithDetail("Send the X-Tenant header.")
		}
		return c.Next()
	}
	ok := func(*router.Ctx, *struct{}) (*thing, error) { return &thing{}, nil }
	r := newRouter(t, router.Config{
		Middleware:       []fiber.Handler{tenant},
		MiddlewareErrors: []*problem.Error{errNoTenant},
		Controllers: []router.Controller{router.Group{Path: "/things", Declared: []router.Route{
			router.Get("/", ok), router.Post("/", ok),
		}}},
	})

	doc, err := r.Spec().Document()
	if err != nil {
		t.Fatal(err)
	}
	if codes := doc.Components.Schemas[openapi.ProblemCodeSchema]; codes == nil || !slices.Contains(codes.Enum, any("tenant_required")) {
		t.Errorf("the code enum %v does not list tenant_required", codes)
	}
	var spec struct {
		Paths map[string]map[string]struct {
			Responses map[string]json.RawMessage
		}
	}
	if err := json.Unmarshal(r.SpecJSON(), &spec); err != nil {
		t.Fatal(err)
	}
	for _, method := range []string{"get", "post"} {
		if _, ok := spec.Paths["/things"][method].Responses["400"]; !ok {
			t.Errorf("%s /things does not document the middleware's 400", method)
		}
	}

	resp, body := do(t, r, httptest.NewRequest(http.MethodGet, "/things", nil))
	if p := wantProblem(t, resp, body, http.StatusBadRequest); p.Code != "tenant_required" || p.Type != problem.TypeURI("tenant_required") {
		t.Errorf("problem %+v, want tenant_required", p)
	}
}
