package router

import "github.com/valyala/fasthttp"

// readHeadsFirst gives a request's line and headers a read deadline of
// their own, Config.ReadHeaderTimeout, before the body's ReadTimeout
// starts: fasthttp sets its ReadTimeout as the deadline of each request
// from its first byte (from the accept for a connection's first), and
// HeaderReceived moves the deadline once the headers are in. So a client
// that opens connections and sends part of a request line frees each
// within ReadHeaderTimeout, while a slow upload keeps its minute.
func (r *Router) readHeadsFirst() {
	srv := r.app.Server()
	srv.ReadTimeout = r.cfg.ReadHeaderTimeout
	body := fasthttp.RequestConfig{ReadTimeout: r.cfg.ReadTimeout}
	srv.HeaderReceived = func(*fasthttp.RequestHeader) fasthttp.RequestConfig { return body }
}
