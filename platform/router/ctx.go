package router

import (
	"context"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/paging"
)

// Ctx is what a typed handler receives next to its bound input: the paging
// of the request, the verified claims on auth routes, and the request's
// context.
type Ctx struct {
	fc     *fiber.Ctx
	paging paging.Paging
	claims *Claims
	// idempotencyKey is the request's Idempotency-Key on a route whose
	// input embeds IdempotencyKeyHeader, empty when none was sent.
	idempotencyKey string
}

// Context returns the context of the request; pass it to everything the
// handler calls.
func (c *Ctx) Context() context.Context { return c.fc.UserContext() }

// Paging returns the page and limit parsed from the query string.
func (c *Ctx) Paging() paging.Paging { return c.paging }

// Claims returns the verified token claims on an auth route, nil elsewhere.
func (c *Ctx) Claims() *Claims { return c.claims }

// Caller returns the id (the token's subject) and the role of the caller on
// an auth route, and ok false elsewhere: what ownership checks in handlers
// compare with the record at hand.
func (c *Ctx) Caller() (id, role string, ok bool) {
	if c.claims == nil {
		return "", "", false
	}
	return c.claims.Subject, c.claims.Role, true
}

// Fiber returns the underlying Fiber context for what the typed API does not
// cover, such as setting a header.
func (c *Ctx) Fiber() *fiber.Ctx { return c.fc }
