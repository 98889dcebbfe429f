package router

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/gofiber/fiber/v2"
)

// Controller groups the routes of one resource under a base path and a
// documentation tag.
type Controller interface {
	// BasePath is the route prefix of the controller, e.g. "/users".
	BasePath() string
	// Tag is the documentation tag of the controller's routes.
	Tag() string
	// Routes declares the controller's routes, paths relative to BasePath.
	Routes() []Route
}

// Describer is implemented by a controller that describes its tag: the text
// shown under the tag's heading in the docs UI. It is optional.
type Describer interface {
	// Description is the tag's description; CommonMark is allowed.
	Description() string
}

// tagDescriptions gathers the tag descriptions of the configuration and of
// the controllers that implement Describer; two different descriptions of
// one tag are a start-up error.
func tagDescriptions(cfg Config) (map[string]string, error) {
	out := map[string]string{systemTag: "The service root and its health check."}
	for tag, desc := range cfg.APIDocs.TagDescriptions {
		out[tag] = desc
	}
	for _, c := range cfg.Controllers {
		d, ok := c.(Describer)
		if !ok || d.Description() == "" {
			continue
		}
		tag, desc := c.Tag(), d.Description()
		if prev, ok := out[tag]; ok && prev != desc {
			return nil, fmt.Errorf("router: tag %q has two descriptions, %q and %q", tag, prev, desc)
		}
		out[tag] = desc
	}
	return out, nil
}

// mount is start-up step 3 for one controller: every route is mounted at
// {BasePath}{controller base path}{route path}.
func (r *Router) mount(c Controller) error {
	if c == nil {
		return fmt.Errorf("router: nil controller")
	}
	prefix := r.cfg.BasePath + c.BasePath()
	for _, rt := range c.Routes() {
		rt.opts = append([]Option{Tag(c.Tag())}, rt.opts...)
		rt.path = joinPath(prefix, rt.path)
		if err := r.add(rt); err != nil {
			return err
		}
	}
	return nil
}

// add builds a route with its full path and registers its handler and
// its operation in the document (which refuses a route that serves what
// another one already does).
func (r *Router) add(rt Route) error {
	name := rt.method + " " + rt.path
	if rt.build == nil {
		return fmt.Errorf("router: route %s was not declared with Get, Post, Put, Patch or Delete", name)
	}
	if !strings.HasPrefix(rt.path, "/") {
		return fmt.Errorf("router: route %s: path must start with \"/\"", name)
	}
	if err := r.claim(rt.method, rt.path, name); err != nil {
		return err
	}
	op, err := newOperation(rt.method, rt.path, rt.opts)
	if err != nil {
		return fmt.Errorf("router: route %s: %w", name, err)
	}
	h, rc, err := rt.build(r, op)
	if err != nil {
		return fmt.Errorf("router: route %s: %w", name, err)
	}
	methods := []string{rt.method}
	if rt.method == fiber.MethodGet {
		// RFC 9110, section 9.1: a resource that answers GET answers HEAD,
		// with the same status and headers and no body.
		methods = append(methods, fiber.MethodHead)
	}
	if rc.bind.body != nil {
		for _, m := range methods {
			if err := r.bodies.add(m, rt.path, rc.bind.body); err != nil {
				return err
			}
		}
	}
	r.routes = append(r.routes, rc)
	handlers := append(op.Middleware[:len(op.Middleware):len(op.Middleware)], h)
	for _, m := range methods {
		r.app.Add(m, rt.path, handlers...)
	}
	return nil
}

// joinPath joins a prefix and a route path; "/" and "" name the prefix itself.
func joinPath(prefix, path string) string {
	if path == "" || path == "/" {
		if prefix == "" {
			return "/"
		}
		return prefix
	}
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	// Fiber routes "/a/" and "/a" alike; keep one spelling.
	return prefix + strings.TrimSuffix(path, "/")
}

// Group is a ready Controller for a base path, a tag and routes.
type Group struct {
	// Path is the controller's base path, e.g. "/users".
	Path string
	// Name is the documentation tag.
	Name string
	// About is the tag's description (Describer); optional.
	About string
	// Declared lists the routes.
	Declared []Route
}

// BasePath returns g.Path.
func (g Group) BasePath() string { return g.Path }

// Tag returns g.Name.
func (g Group) Tag() string { return g.Name }

// Description returns g.About.
func (g Group) Description() string { return g.About }

// Routes returns g.Declared.
func (g Group) Routes() []Route { return g.Declared }

// paramPattern matches a path parameter.
var paramPattern = regexp.MustCompile(`:[^/]+`)

// claim records that the router serves method and path, as name, and
// refuses a second route that would serve the same requests: the one check
// of controller routes and built-in ones alike (parameter names aside,
// /a/:id and /a/:key are one route).
func (r *Router) claim(method, path, name string) error {
	key := method + " " + paramPattern.ReplaceAllString(path, ":")
	if prev, ok := r.claimed[key]; ok {
		return fmt.Errorf("router: route %s duplicates %s", name, prev)
	}
	r.claimed[key] = name
	return nil
}
