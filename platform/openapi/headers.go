package openapi

import (
	"net/http"
	"strconv"
	"strings"
)

// Headers that many responses carry are component headers, documented once
// and referenced by each response (components.headers).

// Component header names.
const (
	headerRequestID       = "RequestId"
	headerNoStore         = "CacheControlNoStore"
	headerNoStoreOptional = "CacheControlNoStoreWithToken"
	headerNoStoreChecked  = "CacheControlNoStoreOnceChecked"
	headerRateLimit       = "RateLimitLimit"
	headerRateRemaining   = "RateLimitRemaining"
	headerRateReset       = "RateLimitReset"
)

// componentHeaders are the component headers a document may reference.
func (r *Registry) componentHeaders() map[string]*Header {
	noStore := "no-store: the answer is for the caller whose token the request carried, and no shared cache may keep it"
	out := map[string]*Header{
		headerNoStore:         textHeader(noStore),
		headerNoStoreOptional: textHeader(noStore + " (sent when the request carried a token)"),
		headerNoStoreChecked:  textHeader(noStore + " (sent once the credentials were checked: not when a Content-Length over the server's largest body is refused before)"),
		headerRateLimit:       countHeader("Requests allowed in the window, when the route is limited by client address"),
		headerRateRemaining:   countHeader("Requests left in the window"),
		headerRateReset:       countHeader("Seconds until the window resets"),
	}
	if r.cfg.RequestIDHeader != "" {
		minLen, maxLen := 1, 64
		out[headerRequestID] = &Header{
			Description: "The request's id: the one the client sent in this header when it is 1 to 64 letters, digits and -_.: characters, else a new one; the service's log lines of the request carry it",
			Schema:      &Schema{Type: "string", MinLength: &minLen, MaxLength: &maxLen},
		}
	}
	return out
}

// headerRefPrefix is what every component header reference starts with.
const headerRefPrefix = "#/components/headers/"

// headerRef references the component header name.
func headerRef(name string) *Header { return &Header{Ref: headerRefPrefix + name} }

// commonHeaders documents, on every response of rt in out, the headers the
// router sends whatever the handler does: the request id; Cache-Control on
// the answers for one caller (every answer of a route behind auth once the
// credentials were checked: not the 401, nor the 408 and 431 of a request
// the server could not read, which come first; the 413 of a body over the
// server's largest may come first too); the RateLimit fields on a route
// that can answer 429.
func (r *Registry) commonHeaders(rt Route, out map[string]*Response) {
	before := map[string]bool{
		strconv.Itoa(http.StatusUnauthorized):                true,
		strconv.Itoa(http.StatusRequestTimeout):              true,
		strconv.Itoa(http.StatusRequestHeaderFieldsTooLarge): true,
	}
	tooLarge := strconv.Itoa(http.StatusRequestEntityTooLarge)
	limited := out[strconv.Itoa(http.StatusTooManyRequests)] != nil
	for status, res := range out {
		if r.cfg.RequestIDHeader != "" {
			res.setHeader(r.cfg.RequestIDHeader, headerRef(headerRequestID))
		}
		if _, declared := res.Headers["Cache-Control"]; !declared && !before[status] {
			switch {
			case (rt.Auth || rt.ClientAuth) && status == tooLarge:
				res.setHeader("Cache-Control", headerRef(headerNoStoreChecked))
			case rt.Auth || rt.ClientAuth:
				res.setHeader("Cache-Control", headerRef(headerNoStore))
			case rt.OptionalAuth:
				res.setHeader("Cache-Control", headerRef(headerNoStoreOptional))
			}
		}
		if limited {
			// A route that can answer 429 is limited: every answer says
			// how much of the window is left.
			res.setHeader("RateLimit-Limit", headerRef(headerRateLimit))
			res.setHeader("RateLimit-Remaining", headerRef(headerRateRemaining))
			res.setHeader("RateLimit-Reset", headerRef(headerRateReset))
		}
	}
}

// usedHeaders are the component headers the responses of doc reference.
func (r *Registry) usedHeaders(doc *Document) map[string]*Header {
	all := r.componentHeaders()
	used := map[string]*Header{}
	for _, item := range doc.Paths {
		for _, op := range item.operations() {
			for _, res := range op.Responses {
				for _, h := range res.Headers {
					if name, ok := strings.CutPrefix(h.Ref, headerRefPrefix); ok && all[name] != nil {
						used[name] = all[name]
					}
				}
			}
		}
	}
	if len(used) == 0 {
		return nil
	}
	return used
}
