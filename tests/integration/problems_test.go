package integration

import (
	"bytes"
	"net/http"
	"testing"

	"github.com/asapjs/fiber-template/platform/router"
)

func TestProblems(t *testing.T) {
	t.Parallel()
	boom := router.Group{Path: "/boom", Name: "Test", Declared: []router.Route{
		router.Get("/", func(c *router.Ctx, in *struct{}) (*struct{}, error) {
			panic("secret-internal-detail")
		}),
	}}
	r := newService(t, inMemory, router.Config{
		BasePath:    "/api",
		BodyLimit:   1024,
		Controllers: []router.Controller{boom},
	})
	base := serve(t, r)

	tests := []struct {
		name     string
		method   string
		path     string
		body     []byte
		statuses []int
		hidden   []string
	}{
		{
			name: "an unknown route answers a 404 problem", method: http.MethodGet,
			path: "/api/no-such-route", statuses: []int{http.StatusNotFound},
		},
		{
			name: "a path outside the base path answers a 404 problem", method: http.MethodGet,
			path: "/no-such-route", statuses: []int{http.StatusNotFound},
		},
		{
			name: "a method the route does not take answers a 405 or 404 problem", method: http.MethodDelete,
			path: "/health-check", statuses: []int{http.StatusMethodNotAllowed, http.StatusNotFound},
		},
		{
			name: "a body over the limit answers a 413 problem", method: http.MethodPost,
			path: "/api/boom", body: bytes.Repeat([]byte("x"), 4096),
			statuses: []int{http.StatusRequestEntityTooLarge},
		},
		{
			name: "a panicking handler answers a 500 problem that keeps the panic to itself", method: http.MethodGet,
			path: "/api/boom", statuses: []int{http.StatusInternalServerError},
			hidden: []string{"secret-internal-detail", "goroutine", "panic", ".go:"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res := fetch(t, base, tt.method, tt.path, tt.body)
			res.wantProblem(t, tt.statuses...)
			res.wantHidden(t, tt.hidden...)
		})
	}
}
