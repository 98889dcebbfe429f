package router

import "github.com/gofiber/fiber/v2"

// unmatchedRoute is the route label and span name of requests no route
// matched, so that probing clients cannot grow the series without bound.
const unmatchedRoute = "unmatched"

// routeTemplates maps the routes of app that serve requests, middleware
// routes left out, to their templates. A request is looked up by the
// route it ended on, never by a string of its own: the middleware chain
// is a route on "/" that a request no route matched ends on, and outside
// the chain Fiber's route of a request is a stand-in whose path points
// into the request's buffer, which the next request reuses.
func routeTemplates(app *fiber.App) map[*fiber.Route]string {
	// GetRoutes copies the routes it returns, and leaves out the
	// middleware's; a copy shares its handlers with the route it copies.
	served := map[*fiber.Handler]bool{}
	for _, rt := range app.GetRoutes(true) {
		served[&rt.Handlers[0]] = true
	}
	m := map[*fiber.Route]string{}
	for _, routes := range app.Stack() {
		for _, rt := range routes {
			if served[&rt.Handlers[0]] {
				m[rt] = rt.Path
			}
		}
	}
	return m
}

// routeLabel is the template of the route c ended on, or unmatchedRoute.
func routeLabel(templates map[*fiber.Route]string, c *fiber.Ctx) string {
	if path, ok := templates[c.Route()]; ok {
		return path
	}
	return unmatchedRoute
}
