package openapi

import (
	"net/http"
	"strconv"
)

// IdempotencyKeyMax is the longest Idempotency-Key a route accepts, in
// characters.
const IdempotencyKeyMax = 255

// idempotencyKey documents the Idempotency-Key of an idempotent route: the
// optional header parameter and the Idempotent-Replayed header of a
// replayed success. It returns the parameters to add.
func idempotencyKey(rt Route, status int, out map[string]*Response) []*Parameter {
	if !rt.Idempotent {
		return nil
	}
	out[strconv.Itoa(status)].setHeader("Idempotent-Replayed", &Header{
		Description: "true when the answer is the stored answer to an earlier request with the same Idempotency-Key",
		Schema:      &Schema{Type: "boolean"},
	})
	if conflict := out[strconv.Itoa(http.StatusConflict)]; conflict != nil {
		conflict.setHeader("Retry-After", countHeader("When the Idempotency-Key is in use by a request still running: seconds to wait before retrying"))
	}
	return []*Parameter{{
		Name: "Idempotency-Key", In: "header",
		Description: "A key unique to this request (a UUID, say), so that it can be retried safely " +
			"(draft-ietf-httpapi-idempotency-key-header): a retry with the same key and the same request gets " +
			"the first answer again, with Idempotent-Replayed: true, and does nothing twice; the same key with " +
			"another request is a 422, and a retry while the first is still running a 409. Successful answers " +
			"are kept for the configured time (24 hours by default); a failed request can be retried with its key. " +
			"Printable ASCII, sent bare or as a structured-field string in double quotes (which count toward its length).",
		Schema: &Schema{Type: "string", MinLength: ptr(1), MaxLength: ptr(IdempotencyKeyMax)},
	}}
}
