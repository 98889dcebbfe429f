// Package ratelimit is a fixed-window rate limiter in the shape of Fiber's
// middleware: New counts each request under a key (by default the client
// address of package clientip) in a Store, and past Config.Max requests in
// a window answers 429 until the window ends.
//
// Every answer carries the RateLimit-Limit, RateLimit-Remaining and
// RateLimit-Reset headers of the IETF draft (draft-ietf-httpapi-ratelimit-
// headers; Reset in seconds), and a 429 also carries Retry-After. The
// limiter fails closed: when the Store cannot answer (an outage, the
// request's deadline), the request is refused with a 503 problem.
//
// Attach it to the routes it guards rather than to path strings, so that
// every spelling of a path that reaches the route is counted:
//
//	limit := ratelimit.New(ratelimit.Config{Max: 30, Window: time.Minute, Scope: "auth"})
//	router.Post("/login", a.login, router.Use(limit))
//
// Stores: NewMemoryStore keeps the counters of one process in an LRU
// bounded by a byte budget; a shared store (one SQL statement per hit, see
// database.RateLimitCounters) counts across the instances of a deployment.
package ratelimit
