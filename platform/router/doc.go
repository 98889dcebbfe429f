// Package router provides the router plugin of the service: it builds the
// Fiber application in a fixed start-up order (extension wiring, middleware,
// controller mounting, built-in endpoints, final error handler), declares
// typed routes whose Go types drive binding, validation, paging, JWT checks
// and the generated OpenAPI document, and answers every error with RFC 9457
// problem details.
//
// The examples show a service author's main tasks: a controller, a
// conditional write (Versioned), roles on a route (Roles), a middleware
// that can fail (Guard) and an extension (Extension).
package router
