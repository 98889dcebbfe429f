package router_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/problem"
	"github.com/asapjs/fiber-template/platform/router"
)

// TestAGuardDeclaresWhatItAnswers: a route's guard runs before its
// handler, and the errors it was made with are documented on the route
// with their codes, and answered as declared.
func TestAGuardDeclaresWhatItAnswers(t *testing.T) {
	t.Parallel()
	errClosed := problem.Declare(http.StatusServiceUnavailable, "shop_closed", "Shop closed")
	closed := func(c *fiber.Ctx) error {
		if c.Query("closed") != "" {
			return errClosed.WithDetail("Come back tomorrow.")
		}
		return c.Next()
	}
	r := newRouter(t, router.Config{Controllers: []router.Controller{router.Group{Path: "/shop", Declared: []router.Route{
		router.Get("/", func(*router.Ctx, *struct{}) (*map[string]string, error) {
			return &map[string]string{"open": "yes"}, nil
		},
			router.Guard(closed, errClosed)),
	}}}})
	_, raw := get(t, r, "/docs/spec.json")
	resp := loadSpec(t, raw).Paths.Find("/shop").Get.Responses.Status(http.StatusServiceUnavailable)
	if resp == nil || resp.Value.Description == nil || !strings.Contains(*resp.Value.Description, "Shop closed") {
		t.Fatalf("the 503 is documented as %+v, want the guard's error", resp)
	}
	if got, body := get(t, r, "/shop"); got.StatusCode != http.StatusOK {
		t.Fatalf("open: %d %s", got.StatusCode, body)
	}
	got, body := get(t, r, "/shop?closed=1")
	if p := wantProblem(t, got, body, http.StatusServiceUnavailable); p.Code != "shop_closed" {
		t.Errorf("closed: problem %+v, want the guard's shop_closed", p)
	}
}
