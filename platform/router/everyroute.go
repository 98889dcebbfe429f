package router

import (
	"slices"

	"github.com/asapjs/fiber-template/platform/problem"
)

// everyRouteErrors lists the declared errors every route may answer, so
// every route documents them: those of the built-in chain (the request
// deadline and the outage detectors' 503s, a request head too large or too
// slow), then Config.MiddlewareErrors, those of the user middleware. A
// route's own errors and those of its options come on top.
func (r *Router) everyRouteErrors() []*problem.Error {
	return slices.Concat([]*problem.Error{errRequestTimeout, errUnavailable, errHeadersTooLarge, errReadTimeout}, r.cfg.MiddlewareErrors)
}
