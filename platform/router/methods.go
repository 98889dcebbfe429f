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
		if knownMethod(methods, fctx.Method()) {
			next(fctx)
			return
		}
		c := r.app.AcquireCtx(fctx)
		defer r.app.ReleaseCtx(c)
		r.answerOutside(c, errUnknownMethod())
	}
}

// knownMethod reports whether m is one of methods, the server's; methods
// are case-sensitive. It compares without making a string of m.
func knownMethod(methods []string, m []byte) bool {
	for _, known := range methods {
		if string(m) == known {
			return true
		}
	}
	return false
}

// errUnknownMethod is the answer to a method HTTP does not define.
func errUnknownMethod() error {
	return problem.New(http.StatusNotImplemented, "The server does not implement this method.")
}
