// Package humabench measures the router against huma v2 on Fiber, the
// alternative closest to it (typed handlers, a spec generated from Go
// types), in the same run as raw Fiber. It is its own module so that huma
// and the dependencies it upgrades stay out of the service's go.mod.
package humabench
