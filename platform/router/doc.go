// Package router provides the router plugin of the service: it builds the
// Fiber application in a fixed start-up order (extension wiring, middleware,
// controller mounting, built-in endpoints, final error handler), declares
// typed routes whose Go types drive binding, validation, paging, JWT checks
// and the generated OpenAPI document, and answers every error with RFC 9457
// problem details.
package router
