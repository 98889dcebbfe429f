package openapi

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/asapjs/fiber-template/platform/paging"
	"github.com/asapjs/fiber-template/platform/problem"
)

// problemType is the body of every error response.
var problemType = reflect.TypeFor[problem.Problem]()

// linkedType is implemented by list answers (*paging.Page), which a router
// sends with a Link header.
var linkedType = reflect.TypeFor[paging.Linked]()

// outputIs reports whether answers of the output type t, a pointer to it
// or the type itself, implement iface; a nil t implements nothing.
func outputIs(t, iface reflect.Type) bool {
	if t == nil {
		return false
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return reflect.PointerTo(t).Implements(iface)
}

// textHeader documents a header whose value is text.
func textHeader(description string) *Header {
	return &Header{Description: description, Schema: &Schema{Type: "string"}}
}

// countHeader documents a header whose value is a count, 0 or more.
func countHeader(description string) *Header {
	return &Header{Description: description, Schema: &Schema{Type: "integer", Minimum: new(float64)}}
}

// setHeader documents the header name of r.
func (r *Response) setHeader(name string, h *Header) {
	if r.Headers == nil {
		r.Headers = map[string]*Header{}
	}
	r.Headers[name] = h
}

// Descriptions of the error responses every route of a kind can answer
// with, used unless the route declares errors with that status.
const (
	descBadRequest  = "Bad Request: malformed input"
	descInvalid     = "Unprocessable Entity: validation failed"
	descMediaType   = "Unsupported Media Type: the body is not in one of the accepted media types, its charset is not UTF-8, or its Content-Encoding is not one the route accepts (x-content-encodings)"
	descTooLarge    = "Content Too Large: the body is over the route's size limit (x-body-limit of the request body)"
	descLength      = "Length Required: a multipart body must be sent with a Content-Length"
	descUnauthorize = "Unauthorized"
	descInternal    = "Internal Server Error"
)

// responses documents the responses of rt: its success, its declared
// errors, and the errors the router itself answers with: 400 for routes
// that bind input or parse paging, 413 and 415 for routes with a body (411
// when it may be multipart), 422 for inputs with validate rules, 401 for
// routes behind auth and 500 for all. A 429 or 503 documents its Retry-After header,
// a 415 its Accept-Encoding and, on a merge patch, its Accept-Patch.
func (g *gen) responses(rt Route, status int, in *input) (map[string]*Response, error) {
	problemRef, err := g.schemaOf(problemType)
	if err != nil {
		return nil, fmt.Errorf("problem schema: %w", err)
	}
	success, err := g.success(rt, status)
	if err != nil {
		return nil, err
	}
	out := map[string]*Response{strconv.Itoa(status): success}
	declared, err := declaredErrors(rt.Errors)
	if err != nil {
		return nil, err
	}
	problemResponse := func(desc string, example *problem.Problem) *Response {
		ref := *problemRef
		// A problem always marshals: it holds strings and numbers only.
		raw, _ := json.Marshal(example)
		return &Response{Description: desc, Content: map[string]*MediaType{problem.ContentType: {Schema: &ref, Example: raw}}}
	}
	for _, d := range routerErrors(rt, in) {
		_, detail, _ := strings.Cut(d.desc, ": ")
		if detail == "" {
			detail = d.desc
		}
		if titles, ok := declared.titles[d.status]; ok {
			// The router answers this status too: its reason comes first.
			declared.titles[d.status] = append([]string{strings.ToUpper(detail[:1]) + detail[1:]}, titles...)
			continue
		}
		out[strconv.Itoa(d.status)] = problemResponse(d.desc, problem.New(d.status, detail))
	}
	for _, st := range declared.statuses {
		out[strconv.Itoa(st)] = problemResponse(strings.Join(declared.titles[st], " / "), declared.examples[st])
	}
	errorHeaders(rt, in, out)
	return out, nil
}

// success documents the success response of rt under status: its body
// and the headers the router and the handler set on it.
func (g *gen) success(rt Route, status int) (*Response, error) {
	success := &Response{Description: http.StatusText(status)}
	if success.Description == "" {
		success.Description = "Success"
	}
	if rt.Output != nil {
		if status == http.StatusNoContent {
			return nil, fmt.Errorf("status 204 has no content, but the output type is %s", rt.Output)
		}
		t := rt.Output
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		s, err := g.schemaOf(t)
		if err != nil {
			return nil, fmt.Errorf("output: %w", err)
		}
		success.Content = map[string]*MediaType{MediaJSON: {Schema: s}}
		if outputIs(rt.Output, linkedType) {
			success.setHeader("Link", textHeader(`RFC 8288 links to the next page (rel="next", by cursor when the list issues one), the page before (rel="prev", on a page after the first reached by its index) and the first (rel="first"), with the request's filters`))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(rt.Headers)) {
		success.setHeader(name, textHeader(rt.Headers[name]))
	}
	return success, nil
}

// declared are a route's declared errors by status.
type declared struct {
	// statuses in the order first declared; titles per status, each once;
	// examples per status, the problem of the first error declared with
	// it: what a client really gets, code included.
	statuses []int
	titles   map[int][]string
	examples map[int]*problem.Problem
}

// declaredErrors groups errs by status, and refuses one that is not 4xx
// or 5xx.
func declaredErrors(errs []*problem.Error) (declared, error) {
	d := declared{titles: map[int][]string{}, examples: map[int]*problem.Problem{}}
	for _, e := range errs {
		if e.Status < 400 || e.Status > 599 {
			return d, fmt.Errorf("error %q has status %d, want 4xx or 5xx", e.Code, e.Status)
		}
		title := e.Title
		if title == "" {
			title = http.StatusText(e.Status)
		}
		if _, seen := d.titles[e.Status]; !seen {
			d.statuses = append(d.statuses, e.Status)
			d.examples[e.Status] = e.Problem()
		}
		if !slices.Contains(d.titles[e.Status], title) {
			d.titles[e.Status] = append(d.titles[e.Status], title)
		}
	}
	return d, nil
}

// routerError is an error the router answers for every route of a kind.
type routerError struct {
	status int
	desc   string
}

// routerErrors are the errors the router itself answers rt with, by the
// shape of its input in: 400 for routes that bind input, 411, 413 and 415
// for routes with a body, 422 for inputs with rules, 401 behind auth and
// 500 for all.
func routerErrors(rt Route, in *input) []routerError {
	all := []struct {
		routerError
		when bool
	}{
		{routerError{http.StatusBadRequest, descBadRequest}, in.declared},
		{routerError{http.StatusLengthRequired, descLength}, in.body != nil && in.body.Content[MediaMultipart] != nil},
		{routerError{http.StatusRequestEntityTooLarge, descTooLarge}, in.body != nil},
		{routerError{http.StatusUnsupportedMediaType, descMediaType}, in.body != nil},
		{routerError{http.StatusUnprocessableEntity, descInvalid}, in.checked},
		{routerError{http.StatusUnauthorized, descUnauthorize}, rt.Auth},
		{routerError{http.StatusInternalServerError, descInternal}, true},
	}
	var out []routerError
	for _, e := range all {
		if e.when {
			out = append(out, e.routerError)
		}
	}
	return out
}

// errorHeaders documents the headers of the error responses out of rt: a
// 429's or 503's Retry-After, a 415's Accept-Encoding and, on a merge
// patch, its Accept-Patch, a 401's challenge.
func errorHeaders(rt Route, in *input, out map[string]*Response) {
	for _, st := range []int{http.StatusTooManyRequests, http.StatusServiceUnavailable} {
		if r := out[strconv.Itoa(st)]; r != nil {
			r.setHeader("Retry-After", countHeader("Seconds to wait before retrying"))
		}
	}
	if r := out[strconv.Itoa(http.StatusUnsupportedMediaType)]; r != nil && in.body != nil {
		r.setHeader("Accept-Encoding", textHeader("When the Content-Encoding was refused: the codings the route takes"))
		if in.body.Content[MediaMergePatch] != nil {
			r.setHeader("Accept-Patch", textHeader("The patch media types the resource takes (RFC 5789)"))
		}
	}
	if r := out[strconv.Itoa(http.StatusUnauthorized)]; r != nil {
		switch {
		case rt.ClientAuth:
			r.setHeader("WWW-Authenticate", textHeader(`The scheme to authenticate with (RFC 7617): Basic, with the client's id and secret`))
		case rt.Auth || rt.OptionalAuth:
			r.setHeader("WWW-Authenticate", textHeader(`The scheme to authenticate with (RFC 6750): Bearer, with error="invalid_token" when the token was refused`))
		}
	}
}

// deprecationHeaders documents the headers of deprecation d on every
// response of out: Deprecation, Sunset, and its link in the Link header
// (with the paging links where a list has them).
func deprecationHeaders(d *Deprecation, out map[string]*Response) {
	if d == nil {
		return
	}
	for _, r := range out {
		for name, h := range d.headers() {
			r.setHeader(name, h)
		}
		if d.Link == "" {
			continue
		}
		if link := r.Headers["Link"]; link != nil {
			r.setHeader("Link", &Header{Description: link.Description + "; and " + d.linkDescription(), Schema: link.Schema})
		} else {
			r.setHeader("Link", textHeader(d.linkDescription()))
		}
	}
}
