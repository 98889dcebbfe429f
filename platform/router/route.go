package router

import (
	"fmt"
	"maps"
	"net/http"
	"reflect"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/openapi"
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
	// build turns the declaration into its handler and spec entry once the
	// router and the full path are known.
	build func(r *Router, fullPath string, o options) (fiber.Handler, routeBinding, error)
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
		build: func(r *Router, fullPath string, o options) (fiber.Handler, routeBinding, error) {
			return buildRoute(r, method, fullPath, h, o)
		}}
}

// buildRoute does all reflection for a route once: the document's model
// of the route (its operation and the analysed input whose fields carry
// their documented schemas), the binding made from that model, and the
// handler that runs the binding per request.
func buildRoute[In, Out any](r *Router, method, fullPath string, h Handler[In, Out], o options) (fiber.Handler, routeBinding, error) {
	if h == nil {
		return nil, routeBinding{}, fmt.Errorf("nil handler")
	}
	if (o.auth || o.optionalAuth) && r.keys == nil && r.cfg.TokenVerifier == nil {
		return nil, routeBinding{}, fmt.Errorf("route requires auth but neither Config.TokenKeys nor Config.JWTSecret is set")
	}
	var idem *idempotent
	if o.idempotent {
		if method != http.MethodPost && method != http.MethodPatch {
			return nil, routeBinding{}, fmt.Errorf("route is Idempotent, which only POST and PATCH need")
		}
		if r.cfg.Idempotency == nil {
			return nil, routeBinding{}, fmt.Errorf("route is Idempotent but Config.Idempotency is nil")
		}
		var err error
		if idem, err = newIdempotent(r, method, fullPath); err != nil {
			return nil, routeBinding{}, err
		}
	}
	outType := reflect.TypeFor[Out]()
	if outType == reflect.TypeFor[NoContent]() {
		if o.status == http.StatusOK {
			o.status = http.StatusNoContent
		}
		outType = nil
	}
	if o.status == http.StatusNoContent {
		outType = nil
	}

	spec := openapi.Route{
		Method:           method,
		Path:             fullPath,
		Summary:          o.summary,
		Description:      o.description,
		Deprecation:      o.deprecation,
		OperationID:      o.operationID,
		Tag:              o.tag,
		Input:            reflect.TypeFor[In](),
		BodyContentTypes: o.contentTypes,
		Output:           outType,
		Status:           o.status,
		Auth:             o.auth,
		OptionalAuth:     o.optionalAuth,
		Roles:            o.roles,
		ClientAuth:       o.clients != nil,
		Sort:             o.sort,
		Headers:          o.headers,
		IfMatch:          o.ifMatch,
		Idempotent:       o.idempotent,
		BodyLimit:        int64(o.bodyLimit),
		MaxBodyLimit:     int64(r.cfg.BodyLimit),
	}
	if o.decompress {
		spec.Encodings = []string{"gzip"}
	}
	var loc *location
	if o.location != "" {
		if o.status != http.StatusCreated {
			return nil, routeBinding{}, fmt.Errorf("route has a Location but answers %d, not 201", o.status)
		}
		var err error
		if loc, err = newLocation(fullPath, o.location, outType); err != nil {
			return nil, routeBinding{}, err
		}
		spec.Headers = maps.Clone(spec.Headers)
		if spec.Headers == nil {
			spec.Headers = map[string]string{}
		}
		spec.Headers[fiber.HeaderLocation] = "The resource created: " + loc.path
	}
	errs := o.errors
	if o.auth || o.optionalAuth || o.clients != nil {
		// What the verifier answers, so the 401 example has its real code.
		errs = append(errs, errUnauthorized)
	}
	if len(o.roles) > 0 {
		errs = append(errs, errForbidden)
	}
	switch o.ifMatch {
	case openapi.IfMatchRequired:
		errs = append(errs, errPreconditionFailed, errPreconditionRequired)
	case openapi.IfMatchOptional:
		errs = append(errs, errPreconditionFailed)
	}
	if o.idempotent {
		errs = append(errs, errIdempotencyInUse, errIdempotencyReused)
	}
	// Every route runs under the request deadline and the outage
	// detectors, so any of them may answer either 503.
	errs = append(errs, errRequestTimeout, errUnavailable, errHeadersTooLarge, errReadTimeout)
	for _, e := range errs {
		spec.Errors = append(spec.Errors, openapi.ErrorResponse{Status: e.Status, Code: e.Code, Title: e.Title})
	}

	op, p, err := r.spec.AddRoute(spec)
	if err != nil {
		return nil, routeBinding{}, err
	}
	bind, err := newBinding(p, r.cfg.BodyLimit, o.decompress)
	if err != nil {
		return nil, routeBinding{}, err
	}

	var (
		maxLimit  = r.cfg.MaxLimit
		paged     = p.Paged()
		auth      = o.auth
		optional  = o.optionalAuth && !o.auth
		roles     = o.roles
		status    = o.status
		noBody    = outType == nil
		get       = method == http.MethodGet
		needMatch = o.ifMatch == openapi.IfMatchRequired
		sortKeys  = o.sort
		clients   = o.clients
	)
	handler := func(fc *fiber.Ctx) error {
		// The handler's context and input, in one allocation.
		call := new(struct {
			c  Ctx
			in In
		})
		c, in := &call.c, &call.in
		if clients != nil {
			if err := authenticateClient(fc, clients); err != nil {
				return err
			}
			fc.Set(fiber.HeaderCacheControl, "no-store")
		}
		// Authentication comes first: a caller without a valid token
		// learns nothing about the route's input rules. (Roles imply
		// auth: an optional-auth route has none to check.)
		if auth || optional && len(fc.Request().Header.Peek(fiber.HeaderAuthorization)) > 0 {
			claims, err := r.authenticate(fc)
			if err != nil {
				return err
			}
			// An answer for one caller, even a 403, must not be kept by
			// shared caches.
			fc.Set(fiber.HeaderCacheControl, "no-store")
			if len(roles) > 0 && !claims.HasRole(roles...) {
				return errForbidden.WithDetail("This operation requires the role %s.", strings.Join(roles, " or "))
			}
			c.claims = claims
		}
		if needMatch {
			if err := requireIfMatch(fc); err != nil {
				return err
			}
		}
		pg := paging.Paging{Page: paging.DefaultPage, Limit: paging.DefaultLimit, MaxLimit: maxLimit}
		if paged {
			args := fc.Context().QueryArgs()
			page, err := nonEmpty(args, "page")
			if err != nil {
				return err
			}
			limit, err := nonEmpty(args, "limit")
			if err != nil {
				return err
			}
			if pg, err = paging.Parse(page, limit, maxLimit); err != nil {
				return err
			}
		}
		c.fc, c.paging = fc, pg
		if len(sortKeys) > 0 {
			raw, err := nonEmpty(fc.Context().QueryArgs(), "sort")
			if err != nil {
				return err
			}
			if c.sort, err = paging.ParseSort(string(raw), sortKeys); err != nil {
				return err
			}
		}
		if err := bind.bind(fc, reflect.ValueOf(in).Elem(), pg); err != nil {
			return err
		}
		if idem != nil && len(fc.Request().Header.PeekAll(HeaderIdempotencyKey)) > 0 {
			return idem.run(fc, c, in, func() error { return answer(fc, c, in, h, status, noBody, get, loc) })
		}
		return answer(fc, c, in, h, status, noBody, get, loc)
	}
	return handler, routeBinding{op: op, binding: bind}, nil
}

// answer runs the handler h on the bound input and writes its answer with
// the route's success status: no body, a 304 to a matching If-None-Match,
// or the output as JSON with its ETag, paging links and, where the route
// has one, its Location.
func answer[In, Out any](fc *fiber.Ctx, c *Ctx, in *In, h Handler[In, Out], status int, noBody, get bool, loc *location) error {
	out, err := h(c, in)
	if err != nil {
		return err
	}
	if loc != nil && out != nil {
		if where, ok := loc.of(out); ok {
			fc.Set(fiber.HeaderLocation, where)
		}
	}
	if noBody || out == nil {
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
	if err := fc.JSON(out); err != nil || !paged || !get {
		return err
	}
	tagPage(fc)
	return nil
}

// routeBinding is a route's binding with the operation the document
// holds for it.
type routeBinding struct {
	// name is the route, "GET /api/users/:id".
	name    string
	op      *openapi.Operation
	binding *binding
}
