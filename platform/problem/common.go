package problem

import "net/http"

// Declared errors that more than one part of the platform answers with, and
// that services return too, so that one code means one thing everywhere:
// declared here once, listed and returned by the router, the rate limiter,
// the docs guard and the service's own routes alike.
var (
	// ErrUnauthorized answers a request without the credentials its
	// route requires (a bearer token, a client's or the docs' Basic
	// credentials), or with credentials that are not valid; the answer
	// carries the WWW-Authenticate challenge of its scheme.
	ErrUnauthorized = Declare(http.StatusUnauthorized, "unauthorized", "Unauthorized")
	// ErrForbidden answers a caller whose credentials are valid but who
	// may not do what it asks: a role it does not have, another user's
	// resource.
	ErrForbidden = Declare(http.StatusForbidden, "forbidden", "Forbidden")
	// ErrTooManyRequests answers a client over a limit; the answer
	// carries Retry-After.
	ErrTooManyRequests = Declare(http.StatusTooManyRequests, "too_many_requests", "Too many requests")
)
