package router

import (
	"errors"
	"net/http"
	"reflect"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/paging"
)

// Handler is a typed route handler. In is a struct whose fields tagged
// `path:"name"` and `query:"name"` are bound from the request, and whose
// field named Body is decoded from the request body; struct{} binds nothing.
// Out is the success body; return a nil *Out for no content.
type Handler[In, Out any] func(c *Ctx, in *In) (*Out, error)

// NoContent is the output type of a route that answers without a body.
type NoContent struct{}

// Route is a declared route, made by Get, Post, Put, Patch or Delete and
// mounted by a Controller.
type Route struct {
	method string
	path   string
	opts   []Option
	// build turns the operation, its path full and its options applied,
	// into the route's handler once the router is known.
	build func(r *Router, op *Operation) (fiber.Handler, *compiled, error)
}

// Get declares a GET route.
//
//	router.Get("/:id", users.get, router.Summary("Get a user"), router.Auth(),
//		router.Errors(ErrUserNotFound))
func Get[In, Out any](path string, h Handler[In, Out], opts ...Option) Route {
	return declare(http.MethodGet, path, h, opts)
}

// Post declares a POST route; add Status(201) for a create.
func Post[In, Out any](path string, h Handler[In, Out], opts ...Option) Route {
	return declare(http.MethodPost, path, h, opts)
}

// Put declares a PUT route.
func Put[In, Out any](path string, h Handler[In, Out], opts ...Option) Route {
	return declare(http.MethodPut, path, h, opts)
}

// Patch declares a PATCH route.
func Patch[In, Out any](path string, h Handler[In, Out], opts ...Option) Route {
	return declare(http.MethodPatch, path, h, opts)
}

// Delete declares a DELETE route; add Status(204) and return NoContent for
// no body.
func Delete[In, Out any](path string, h Handler[In, Out], opts ...Option) Route {
	return declare(http.MethodDelete, path, h, opts)
}

func declare[In, Out any](method, path string, h Handler[In, Out], opts []Option) Route {
	return Route{method: method, path: path, opts: opts,
		build: func(r *Router, op *Operation) (fiber.Handler, *compiled, error) {
			return buildRoute(r, op, h)
		}}
}

// buildRoute does all reflection for a route once: the operation learns
// its input and output types, the router compiles it (the document's
// model of the route, and the binding made from that model), and the
// handler runs the compiled route per request.
func buildRoute[In, Out any](r *Router, op *Operation, h Handler[In, Out]) (fiber.Handler, *compiled, error) {
	if h == nil {
		return nil, nil, errors.New("nil handler")
	}
	op.Input, op.Output = reflect.TypeFor[In](), reflect.TypeFor[Out]()
	rc, err := r.compile(op)
	if err != nil {
		return nil, nil, err
	}
	return handle(r, rc, h), rc, nil
}

// handle is the handler of the compiled route rc: it admits the caller,
// reads the input and answers with h, replaying the first answer to a
// retried idempotency key.
func handle[In, Out any](r *Router, rc *compiled, h Handler[In, Out]) fiber.Handler {
	return func(fc *fiber.Ctx) error {
		// The handler's context and input, in one allocation.
		call := new(struct {
			c  Ctx
			in In
		})
		c, in := &call.c, &call.in
		c.fc = fc
		if err := r.admit(fc, c, rc.op); err != nil {
			return err
		}
		if err := rc.bind.bind(fc, reflect.ValueOf(in).Elem(), c); err != nil {
			return err
		}
		if rc.idem != nil && c.idempotencyKey != "" {
			return rc.idem.run(fc, c, in, c.idempotencyKey, func() error { return answer(fc, c, in, h, rc) })
		}
		return answer(fc, c, in, h, rc)
	}
}

// answer runs the handler h on the bound input and writes its answer with
// the route's success status: no body, a 304 to a matching If-None-Match,
// or the output as JSON with its ETag, paging links and, where the route
// has one, its Location.
func answer[In, Out any](fc *fiber.Ctx, c *Ctx, in *In, h Handler[In, Out], rc *compiled) error {
	out, err := h(c, in)
	if err != nil {
		return err
	}
	if rc.loc != nil && out != nil {
		if where, ok := rc.loc.of(out); ok {
			fc.Set(fiber.HeaderLocation, where)
		}
	}
	status, get := rc.op.Status, rc.op.Method == http.MethodGet
	if rc.op.Output == nil || out == nil {
		return fc.SendStatus(status)
	}
	notModified, err := tagAnswer(fc, any(out), get)
	if err != nil {
		return err
	}
	if notModified {
		return fc.SendStatus(http.StatusNotModified)
	}
	p, paged := any(out).(paging.Linked)
	if paged {
		setLinks(fc, p.Links())
	}
	fc.Status(status)
	if err := writeJSON(fc, out, fiber.MIMEApplicationJSON); err != nil || !paged || !get {
		return err
	}
	tagPage(fc)
	return nil
}
