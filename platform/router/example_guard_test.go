package router_test

import (
	"fmt"
	"io"
	"net/http/httptest"
	"sync/atomic"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/problem"
	"github.com/asapjs/fiber-template/platform/router"
)

// errMaintenance is what the maintenance guard answers.
var errMaintenance = problem.Declare(503, "maintenance", "Down for maintenance")

// A middleware that can fail returns a declared problem.Error; Guard runs
// it on the route and lists that error on the route's document, so the
// answer a client may get is documented where the guard is attached.
func ExampleGuard() {
	var maintenance atomic.Bool
	guard := func(c *fiber.Ctx) error {
		if maintenance.Load() {
			return errMaintenance.WithDetail("Back in ten minutes.")
		}
		return c.Next()
	}
	r, err := router.New(router.Config{Controllers: []router.Controller{router.Group{Path: "/orders", Declared: []router.Route{
		router.Post("/", func(*router.Ctx, *struct{}) (*map[string]string, error) {
			return &map[string]string{"order": "placed"}, nil
		}, router.Guard(guard, errMaintenance)),
	}}}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, down := range []bool{false, true} {
		maintenance.Store(down)
		resp, _ := r.App().Test(httptest.NewRequest("POST", "/orders", nil), -1)
		body, _ := io.ReadAll(resp.Body)
		fmt.Println(resp.StatusCode, string(body))
	}
	doc, err := r.Spec().Document()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("documented:", doc.Paths["/orders"].Post.Responses["503"].Description)
	// Output:
	// 200 {"order":"placed"}
	// 503 {"type":"urn:problem-type:maintenance","title":"Down for maintenance","status":503,"detail":"Back in ten minutes.","code":"maintenance"}
	// documented: Down for maintenance / Request timed out / Service unavailable
}
