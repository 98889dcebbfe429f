package router

import (
	"net/http"

	"github.com/valyala/fasthttp"

	"github.com/asapjs/fiber-template/platform/problem"
)

// answerUnknownMethods wraps the server's handler so that a request whose
// method is none of HTTP's (an unknown token, or a known one in another
// case: methods are case-sensitive) gets a 501 problem with the security
// headers, as every other error is answered. Fiber answers it with a
// plain-text 400 of its own, before any middleware.
func (r *Router) answerUnknownMethods() {
	srv := r.app.Server()
	next := srv.Handler
	methods := r.app.Config().RequestMethods
	srv.Handler = func(fctx *fasthttp.RequestCtx) {
		for _, m := range methods {
			if string(fctx.Method()) == m {
				next(fctx)
				return
			}
		}
		c := r.app.AcquireCtx(fctx)
		defer r.app.ReleaseCtx(c)
		r.answerOutside(c, errUnknownMethod())
	}
}

// errUnknownMethod is the answer to a method HTTP does not define.
func errUnknownMethod() error {
	return problem.New(http.StatusNotImplemented, "The server does not implement this method.")
}
