package router

import (
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/openapi"
)

// compiled is a route made ready to serve: its operation, the document's
// operation for it, the binding of its input and what its options need at
// request time.
type compiled struct {
	op *Operation
	// doc is the operation as the document holds it.
	doc  *openapi.Operation
	bind *binding
	// idem replays retried Idempotency-Keys; nil unless op.Idempotent.
	idem *idempotent
	// loc fills the Location of a 201; nil unless op.Location is set.
	loc *location
}

// compile settles op, documents it and makes its binding: everything a
// route needs is checked and built here, once, so that a bad declaration
// fails at start-up.
func (r *Router) compile(op *Operation) (*compiled, error) {
	headers, err := declareHeaderInputs(op)
	if err != nil {
		return nil, err
	}
	if err := r.settle(op); err != nil {
		return nil, err
	}
	rc := &compiled{op: op}
	if op.Idempotent {
		if rc.idem, err = newIdempotent(r, op.Method, op.Path); err != nil {
			return nil, err
		}
	}
	if op.Location != "" {
		if rc.loc, err = newLocation(op.Path, op.Location, op.Output); err != nil {
			return nil, err
		}
		op.documentLocation(rc.loc)
	}
	doc, in, err := r.spec.AddRoute(op.Route)
	if err != nil {
		return nil, err
	}
	rc.doc = doc
	if rc.bind, err = newBinding(in, r.cfg.BodyLimit, len(op.Encodings) > 0, r.cfg.MaxLimit, headers); err != nil {
		return nil, err
	}
	return rc, nil
}

// admit lets the caller of op through or answers why not: a client's
// credentials, a bearer token and its roles, then a required If-Match.
// Authentication comes first: a caller without a valid token learns
// nothing about the route's input rules.
func (r *Router) admit(fc *fiber.Ctx, c *Ctx, op *Operation) error {
	if op.Clients != nil {
		if err := authenticateClient(fc, op.Clients); err != nil {
			return err
		}
		fc.Set(fiber.HeaderCacheControl, "no-store")
	}
	// Roles imply auth: an optional-auth route has none to check.
	if op.Auth || op.OptionalAuth && len(fc.Request().Header.Peek(fiber.HeaderAuthorization)) > 0 {
		claims, err := r.authenticate(fc)
		if err != nil {
			return err
		}
		// An answer for one caller, even a 403, must not be kept by
		// shared caches.
		fc.Set(fiber.HeaderCacheControl, "no-store")
		if len(op.Roles) > 0 && !claims.HasRole(op.Roles...) {
			return errForbidden.WithDetail("This operation requires the role %s.", strings.Join(op.Roles, " or "))
		}
		c.claims = claims
	}
	if op.IfMatch == openapi.IfMatchRequired {
		return requireIfMatch(fc)
	}
	return nil
}
