package openapi

import (
	"net/http"
	"reflect"
	"strconv"

	"github.com/asapjs/fiber-template/platform/etag"
)

// IfMatch is how a write route treats the If-Match header.
type IfMatch int

const (
	// IfMatchIgnored: the route does not read If-Match (the default).
	IfMatchIgnored IfMatch = iota
	// IfMatchOptional: a request with If-Match is a conditional write,
	// 412 when the tag is not the current one; one without writes as is.
	IfMatchOptional
	// IfMatchRequired: as IfMatchOptional, and a request without If-Match
	// is a 428.
	IfMatchRequired
)

// taggedType is implemented by answers that name their entity tag.
var taggedType = reflect.TypeFor[etag.Tagged]()

// currentTag documents the ETag of the current representation, on a 304
// and on a 412.
func currentTag() *Header {
	return textHeader("Entity tag of the current representation")
}

// conditional documents the conditional requests of rt: the ETag of its
// success, and on a GET the If-None-Match parameter and the 304 it
// answers; the If-Match parameter of a write that reads it, with the
// current ETag on its 412. It returns the parameters to add.
func conditional(rt Route, method string, status int, out map[string]*Response) []*Parameter {
	var params []*Parameter
	// A strong tag when the answer names its own (etag.Tagged), a weak
	// one when a GET answers a page of a list.
	strong := outputIs(rt.Output, taggedType)
	weak := method == http.MethodGet && outputIs(rt.Output, linkedType)
	if strong || weak {
		desc := "Entity tag of the answer (RFC 9110): changes whenever the representation does"
		if !strong {
			desc = "Weak entity tag of the page (RFC 9110), a digest of its body: send it back in If-None-Match"
		}
		out[strconv.Itoa(status)].setHeader("ETag", textHeader(desc))
	}
	if (strong || weak) && method == http.MethodGet {
		params = append(params, &Parameter{
			Name: "If-None-Match", In: "header",
			Description: "Entity tags of representations the client holds: when one matches (weak comparison), the answer is a 304 without a body",
			Schema:      &Schema{Type: "string"},
		})
		out[strconv.Itoa(http.StatusNotModified)] = &Response{
			Description: "Not Modified: the representation is the one If-None-Match names",
			Headers:     map[string]*Header{"ETag": currentTag()},
		}
	}
	if rt.IfMatch != IfMatchIgnored {
		desc := "Entity tag (ETag) of the representation the client read: the write happens only if it is still the current one, else 412; * for any"
		if rt.IfMatch == IfMatchRequired {
			desc += ". Required: a request without it is a 428"
		}
		params = append(params, &Parameter{
			Name: "If-Match", In: "header", Required: rt.IfMatch == IfMatchRequired,
			Description: desc, Schema: &Schema{Type: "string"},
		})
		if r := out[strconv.Itoa(http.StatusPreconditionFailed)]; r != nil {
			r.setHeader("ETag", currentTag())
		}
	}
	return params
}
