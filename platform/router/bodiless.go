package router

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/problem"
)

// Only a route that declares a body reads one, and only after its checks
// (body.go). Every other request that comes with a body is refused with a
// 413 before any handler runs, the body unread (but for what the server
// reads with the headers, prefetchedBody at most), and its connection is
// closed after the answer when part of the body is still to come
// (settleBody), so none of it is taken for a request: a route of the route
// model that declares none, a route mounted beside it (the docs, the
// metrics, the developer tools), a path no route serves, a method the path
// does not have. Nothing the process serves can be made to buffer a body
// it has no use for, whatever its handler would do with one.

// bodyRoutes are the routes that declare a request body, by method: a
// pattern per route path, which matches every request path Fiber routes to
// it, with the route's body binding (nil under anyMethod).
type bodyRoutes map[string][]bodyRoute

// bodyRoute is one route of bodyRoutes.
type bodyRoute struct {
	path *regexp.Regexp
	body *bodyBinding
}

// add records that method and path, as Fiber routes it, take the body
// that body binds.
func (b bodyRoutes) add(method, path string, body *bodyBinding) error {
	re, err := regexp.Compile(pathPattern(path))
	if err != nil {
		return fmt.Errorf("router: route %s %s: path pattern: %w", method, path, err)
	}
	b[method] = append(b[method], bodyRoute{re, body})
	return nil
}

// takes reports whether a route that declares a body may serve method and
// path (a request path as Fiber matches it: c.Path(), as sent).
func (b bodyRoutes) takes(method, path string) bool {
	for _, rt := range b[method] {
		if rt.path.MatchString(path) {
			return true
		}
	}
	return false
}

// limit is the largest body a route that declares one takes for method
// and path, of those that may serve them (a literal route registered
// before a parameter's may shadow it), or 0 when none does.
func (b bodyRoutes) limit(method, path string) int {
	n := 0
	for _, rt := range b[method] {
		if rt.body != nil && rt.path.MatchString(path) {
			n = max(n, rt.body.limit)
		}
	}
	return n
}

// pathPattern is the regular expression of a Fiber route path as the
// route model takes them (no constraints, optional parameters or
// wildcards): a parameter, named up to the next of Fiber's delimiters, is
// one or more bytes other than '/', a backslash escapes the byte after it,
// and every other byte stands for itself; Fiber routes strictly and
// case-sensitively here. It matches the request paths Fiber routes to the
// route (TestBodyRoutePatternsMatchWhatFiberRoutes); one that Fiber routes
// to a route registered before it, with a literal in place of the
// parameter, is a route of the route model, which reads no body it does
// not declare.
func pathPattern(path string) string {
	var b strings.Builder
	b.WriteByte('^')
	for i := 0; i < len(path); i++ {
		switch c := path[i]; {
		case c == '\\' && i+1 < len(path):
			i++
			b.WriteString(regexp.QuoteMeta(path[i : i+1]))
		case c == ':':
			for i+1 < len(path) && !strings.ContainsRune(`?:\/-.`, rune(path[i+1])) {
				i++
			}
			b.WriteString(`[^/]+`)
		default:
			b.WriteString(regexp.QuoteMeta(path[i : i+1]))
		}
	}
	b.WriteByte('$')
	return b.String()
}

// hasBody reports whether a request comes with a body: a Content-Length
// over 0, or one sent in chunks (which may be empty, but is not read to
// find out).
func hasBody(c *fiber.Ctx) bool {
	n := c.Request().Header.ContentLength()
	return n > 0 || n == -1
}

// refuseUndeclaredBody answers 413 to a request with a body that no route
// declaring one serves, and 404 when no route at all serves its path (a
// route the service left out, such as the accounts of a resource server,
// is not found whether or not the request has a body).
func (r *Router) refuseUndeclaredBody(c *fiber.Ctx) error {
	if !hasBody(c) || r.bodies.takes(c.Method(), c.Path()) {
		return nil
	}
	if !r.bodies.takes(anyMethod, c.Path()) {
		return fiber.ErrNotFound
	}
	return problem.New(http.StatusRequestEntityTooLarge, "The request has a body, which this method and path do not take: send it without one.")
}

// anyMethod is the key of bodyRoutes under which every served path is
// recorded, whatever its method and whether or not it takes a body.
const anyMethod = "*"

// learnPaths records every path app serves under anyMethod, once every
// route is registered: a wildcard or an optional part matches any rest.
func (b bodyRoutes) learnPaths(app *fiber.App) error {
	for _, rt := range app.GetRoutes(true) {
		path := rt.Path
		if i := strings.IndexAny(path, "*+?"); i >= 0 {
			path = path[:i]
			re, err := regexp.Compile(strings.TrimSuffix(pathPattern(path), "$"))
			if err != nil {
				return fmt.Errorf("router: route %s %s: path pattern: %w", rt.Method, rt.Path, err)
			}
			b[anyMethod] = append(b[anyMethod], bodyRoute{path: re})
			continue
		}
		if err := b.add(anyMethod, path, nil); err != nil {
			return err
		}
	}
	return nil
}
