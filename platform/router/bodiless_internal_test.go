package router

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"testing"

	"github.com/gofiber/fiber/v2"
)

// TestBodyRoutePatternsMatchWhatFiberRoutes registers each route path on
// a Fiber application configured as the router's and sends it request
// paths: the pattern of the route path matches exactly the paths Fiber
// routes to it, so a body is refused unread wherever Fiber would route it
// to a route that takes none, and never where it would route it to one
// that declares one.
func TestBodyRoutePatternsMatchWhatFiberRoutes(t *testing.T) {
	t.Parallel()
	requests := []string{
		"/", "/metrics", "/users", "/users/", "/users/1", "/users/me", "/users/1/2", "/users/1/password",
		"/files/a.json", "/files/a", "/files/.json", "/files/a.b.json", "/files/a.jsonx",
		"/range/1-2", "/range/1", "/range/1-", "/range/1-2-3", "/a:b/5", "/a/5", "/USERS/1",
	}
	for _, route := range []string{
		"/users/:id", "/users/:id/password", "/files/:name.json", "/range/:from-:to", `/a\:b/:id`, "/:slug",
	} {
		t.Run(route, func(t *testing.T) {
			t.Parallel()
			app := fiber.New(fiber.Config{CaseSensitive: true, StrictRouting: true})
			app.Post(route, func(c *fiber.Ctx) error { return c.SendStatus(http.StatusNoContent) })
			re := regexp.MustCompile(pathPattern(route))
			for _, path := range requests {
				res, err := app.Test(httptest.NewRequest(http.MethodPost, path, nil), -1)
				if err != nil {
					t.Fatal(err)
				}
				routed := res.StatusCode == http.StatusNoContent
				if matched := re.MatchString(path); matched != routed {
					t.Errorf("%s: the pattern %s matches: %v; Fiber routes it to the route: %v", path, re, matched, routed)
				}
			}
		})
	}
}
