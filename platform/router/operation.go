package router

import (
	"errors"
	"fmt"
	"maps"
	"net/http"
	"reflect"
	"slices"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/openapi"
	"github.com/asapjs/fiber-template/platform/problem"
)

// Operation is one route as declared, the one value both the document
// and the router read: what the document shows of it (the embedded
// openapi.Route: method and path, summary, success status, declared
// errors, authentication and roles, sort keys, conditional and idempotent
// writes, body limits and encodings) and the little that only the router
// acts on. A route's Options set it; once the route is mounted it does
// not change, and no copy of any of its fields is kept elsewhere.
type Operation struct {
	// Route is what the document shows of the route.
	openapi.Route
	// Middleware run after the route matched, before its authentication
	// (Use), the deprecation headers first on a deprecated route.
	Middleware []fiber.Handler
	// Clients check the credentials of a ClientAuth route; nil otherwise.
	Clients Clients
	// Location is the template of a 201's Location header (Location).
	Location string
}

// noContentType is the output type of a route that answers without a
// body.
var noContentType = reflect.TypeFor[NoContent]()

// newOperation applies opts to the operation of method and path, and
// refuses what no route may declare.
func newOperation(method, path string, opts []Option) (*Operation, error) {
	op := &Operation{Route: openapi.Route{Method: method, Path: path, Status: http.StatusOK}}
	for _, opt := range opts {
		opt(op)
	}
	if err := op.check(); err != nil {
		return nil, err
	}
	return op, nil
}

// settle completes op under r's configuration once its input and output
// types are known: the status and output of a route without content, the
// server's body ceiling, the Location header, every error it can answer
// and the deprecation headers. It refuses what r cannot serve.
func (r *Router) settle(op *Operation) error {
	if op.Output == noContentType {
		if op.Status == http.StatusOK {
			op.Status = http.StatusNoContent
		}
		op.Output = nil
	}
	if op.Status == http.StatusNoContent {
		op.Output = nil
	}
	if (op.Auth || op.OptionalAuth) && r.keys == nil && r.cfg.TokenVerifier == nil {
		return errors.New("route requires auth but neither Config.TokenKeys nor Config.JWTSecret is set")
	}
	if op.Idempotent {
		if op.Method != http.MethodPost && op.Method != http.MethodPatch {
			return errors.New("route is Idempotent, which only POST and PATCH need")
		}
		if r.cfg.Idempotency == nil {
			return errors.New("route is Idempotent but Config.Idempotency is nil")
		}
	}
	if op.Location != "" && op.Status != http.StatusCreated {
		return fmt.Errorf("route has a Location but answers %d, not 201", op.Status)
	}
	op.MaxBodyLimit = int64(r.cfg.BodyLimit)
	op.Errors = r.errorsOf(op)
	if op.Deprecation != nil {
		// First, so that every answer carries the headers, whatever
		// answers it.
		op.Middleware = slices.Concat([]fiber.Handler{deprecationHeaders(op.Deprecation)}, op.Middleware)
	}
	return nil
}

// documentLocation documents the Location header of op's answers, the
// template under its path.
func (op *Operation) documentLocation(loc *location) {
	op.Headers = maps.Clone(op.Headers)
	if op.Headers == nil {
		op.Headers = map[string]string{}
	}
	op.Headers[fiber.HeaderLocation] = "The resource created: " + loc.path
}

// errorsOf lists every declared error the route of op can answer, in the
// one place they are derived: those its handler declares, then those of
// what its options enforce (authentication, roles, If-Match, idempotency
// keys), then those every route may answer (everyRouteErrors).
func (r *Router) errorsOf(op *Operation) []*problem.Error {
	errs := slices.Clone(op.Errors)
	if op.Auth || op.OptionalAuth || op.ClientAuth {
		// What the verifier answers, so the 401 example has its real code.
		errs = append(errs, errUnauthorized)
	}
	if len(op.Roles) > 0 {
		errs = append(errs, errForbidden)
	}
	switch op.IfMatch {
	case openapi.IfMatchRequired:
		errs = append(errs, errPreconditionFailed, errPreconditionRequired)
	case openapi.IfMatchOptional:
		errs = append(errs, errPreconditionFailed)
	}
	if op.Idempotent {
		errs = append(errs, errIdempotencyInUse, errIdempotencyReused)
	}
	return append(errs, r.everyRouteErrors()...)
}
