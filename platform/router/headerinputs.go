package router

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/etag"
	"github.com/asapjs/fiber-template/platform/openapi"
)

// IfMatchHeader, embedded in a write route's input, makes the route a
// conditional write (RFC 9110, section 13.1.1): the handler writes only
// when the entity tag the client read is still the current one, in the
// same statement as the write (UPDATE … WHERE version = ?), and answers
// Ctx.PreconditionFailed otherwise (Versioned does all of this). A request
// without If-Match writes unconditionally. The document lists the header,
// the 412 and its ETag.
//
//	type UpdateBookInput struct {
//		router.IfMatchHeader
//		ID   int64 `path:"id"`
//		Body BookFields
//	}
type IfMatchHeader struct {
	// IfMatch is the request's If-Match, as Ctx.IfMatch reads it: not
	// Present when none was sent.
	IfMatch etag.Condition
}

// RequiredIfMatchHeader is IfMatchHeader, and a request without If-Match
// is a 428 problem, after authentication and before the input is read:
// no client can overwrite a change it has not seen.
type RequiredIfMatchHeader struct {
	// IfMatch is the request's If-Match, always Present.
	IfMatch etag.Condition
}

// IdempotencyKeyHeader, embedded in a POST or PATCH route's input, makes
// the route safe to retry with an Idempotency-Key header
// (draft-ietf-httpapi-idempotency-key-header), as a create should be: the
// first request with a key runs, and its successful answer (status, the
// headers in replayedHeaders, body) is kept in Config.Idempotency for
// Config.IdempotencyTTL with a digest of the request; a retry with the
// same key and request gets that answer with Idempotent-Replayed: true and
// runs nothing. The same key with another request is a 422, and a retry
// while the first still runs a 409. Keys belong to the caller (its token's
// subject, or its address when anonymous) and the route. A failed request
// (an error, not a 2xx) keeps nothing: its retry runs again. Requests
// without the header run as usual. The document lists the header and both
// problems; a malformed key is the binder's 400 naming the header.
type IdempotencyKeyHeader struct {
	// IdempotencyKey is the request's key, unquoted; empty when none was
	// sent.
	IdempotencyKey string
}

var (
	ifMatchHeaderType         = reflect.TypeFor[IfMatchHeader]()
	requiredIfMatchHeaderType = reflect.TypeFor[RequiredIfMatchHeader]()
	idempotencyKeyHeaderType  = reflect.TypeFor[IdempotencyKeyHeader]()
)

// headerInputs are where an input embeds the header inputs above: the
// index of each embedded struct's one field, nil when it has none.
type headerInputs struct {
	ifMatch, idempotencyKey []int
}

// declareHeaderInputs finds the header inputs op's input type embeds and
// declares on op what they ask for: the If-Match its write reads, and
// idempotent retries. The input type is the one place these are
// declared: an option that set them without it is refused.
func declareHeaderInputs(op *Operation) (headerInputs, error) {
	var h headerInputs
	ifMatch, idempotent := op.IfMatch, op.Idempotent
	op.IfMatch, op.Idempotent = openapi.IfMatchIgnored, false
	t := op.Input
	if t == nil {
		return h, h.check(ifMatch, idempotent)
	}
	if t.Kind() != reflect.Struct {
		return h, fmt.Errorf("the input type %s is not a struct: a handler takes *In, In a struct (struct{} for none)", t)
	}
	for _, f := range reflect.VisibleFields(t) {
		if !f.Anonymous {
			continue
		}
		switch f.Type {
		case ifMatchHeaderType, requiredIfMatchHeaderType:
			if h.ifMatch != nil {
				return h, errors.New("the input embeds IfMatchHeader or RequiredIfMatchHeader twice")
			}
			h.ifMatch = append(f.Index[:len(f.Index):len(f.Index)], 0)
			op.IfMatch = openapi.IfMatchOptional
			if f.Type == requiredIfMatchHeaderType {
				op.IfMatch = openapi.IfMatchRequired
			}
		case idempotencyKeyHeaderType:
			h.idempotencyKey = append(f.Index[:len(f.Index):len(f.Index)], 0)
			op.Idempotent = true
		case reflect.PointerTo(ifMatchHeaderType), reflect.PointerTo(requiredIfMatchHeaderType), reflect.PointerTo(idempotencyKeyHeaderType):
			return h, fmt.Errorf("the input embeds %s: embed the struct, not a pointer to it", f.Type)
		}
	}
	return h, h.check(ifMatch, idempotent)
}

// check refuses a route that an option made conditional or idempotent
// (ifMatch and idempotent as its options left them) although its input
// does not embed the header input that declares it.
func (h headerInputs) check(ifMatch openapi.IfMatch, idempotent bool) error {
	if ifMatch != openapi.IfMatchIgnored && h.ifMatch == nil {
		return errors.New("route reads If-Match, but its input embeds neither router.IfMatchHeader nor router.RequiredIfMatchHeader, which declare it")
	}
	if idempotent && h.idempotencyKey == nil {
		return errors.New("route is idempotent, but its input does not embed router.IdempotencyKeyHeader, which declares it")
	}
	return nil
}

// bind fills the header inputs of the input at in, and keeps
// the Idempotency-Key in c for the replay: a malformed or repeated key is
// a 400 naming the header.
func (h headerInputs) bind(fc *fiber.Ctx, in reflect.Value, c *Ctx) error {
	if h.ifMatch != nil {
		// Through a pointer, which boxes without allocating.
		*in.FieldByIndex(h.ifMatch).Addr().Interface().(*etag.Condition) = c.IfMatch()
	}
	if h.idempotencyKey == nil {
		return nil
	}
	key, err := idempotencyKey(fc)
	if err != nil {
		return err
	}
	c.idempotencyKey = key
	in.FieldByIndex(h.idempotencyKey).SetString(key)
	return nil
}
