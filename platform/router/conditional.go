package router

import (
	"net/http"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/etag"
	"github.com/asapjs/fiber-template/platform/problem"
)

// The problems of conditional writes; routes whose input embeds
// IfMatchHeader or RequiredIfMatchHeader declare them.
var (
	errPreconditionFailed   = problem.Declare(http.StatusPreconditionFailed, "precondition_failed", "Precondition failed")
	errPreconditionRequired = problem.Declare(http.StatusPreconditionRequired, "precondition_required", "Precondition required")
)

// IfMatch returns the request's If-Match header: Present false without
// one, Any for "*", and the entity tags the client sent. The strong
// comparison If-Match uses is Opaque: the opaque values of its strong
// tags, to compare with the EntityTag of the current representation.
func (c *Ctx) IfMatch() etag.Condition { return condition(c.fc, fiber.HeaderIfMatch) }

// condition reads the conditional header name (If-Match, If-None-Match)
// of the request: every field of that name, as one list, and present when
// one is sent at all, even empty.
func condition(fc *fiber.Ctx, name string) etag.Condition {
	return etag.ParseFields(fc.Request().Header.PeekAll(name))
}

// PreconditionFailed is the answer to a conditional write whose If-Match
// did not name the current representation: a 412 problem whose ETag header
// is the current tag (opaque, as EntityTag returns it), so the client can
// read the representation again and retry.
func (c *Ctx) PreconditionFailed(current string) error {
	if etag.Check(current) == nil {
		c.fc.Set(fiber.HeaderETag, etag.Strong(current))
	}
	return errPreconditionFailed.WithDetail("The representation changed since the client read it (If-Match); read it again and retry.")
}

// requireIfMatch answers 428 to a request without If-Match.
func requireIfMatch(fc *fiber.Ctx) error {
	if !condition(fc, fiber.HeaderIfMatch).Present {
		return errPreconditionRequired.WithDetail("This operation requires If-Match with the ETag of the representation it changes.")
	}
	return nil
}

// tagAnswer sets the strong ETag of a Tagged answer, and reports whether a
// GET's If-None-Match holds it, so that the answer is a 304.
func tagAnswer(fc *fiber.Ctx, out any, get bool) (notModified bool, err error) {
	t, ok := out.(etag.Tagged)
	if !ok {
		return false, nil
	}
	opaque := t.EntityTag()
	if err := etag.Check(opaque); err != nil {
		return false, err
	}
	tag := etag.Strong(opaque)
	fc.Set(fiber.HeaderETag, tag)
	return get && condition(fc, fiber.HeaderIfNoneMatch).MatchWeak(tag), nil
}

// tagPage sets the weak ETag of a page already in the answer's body, a
// digest of it, and turns the answer into a 304 without a body or links
// when the GET's If-None-Match holds it.
func tagPage(fc *fiber.Ctx) {
	tag := etag.Weak(fc.Response().Body())
	fc.Set(fiber.HeaderETag, tag)
	if condition(fc, fiber.HeaderIfNoneMatch).MatchWeak(tag) {
		fc.Response().ResetBody()
		fc.Response().Header.Del(fiber.HeaderContentType)
		// RFC 9110, section 15.4.5: no representation metadata beyond
		// what a 200 would have had to revalidate with.
		fc.Response().Header.Del(fiber.HeaderLink)
		fc.Status(http.StatusNotModified)
	}
}
