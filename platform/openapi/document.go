package openapi

import (
	"encoding/json"
	"iter"
)

// Document is an OpenAPI 3.0 document, the typed form of what JSON returns.
type Document struct {
	OpenAPI    string                `json:"openapi"`
	Info       Info                  `json:"info"`
	Servers    []Server              `json:"servers"`
	Tags       []Tag                 `json:"tags,omitempty"`
	Paths      map[string]*PathItem  `json:"paths"`
	Components Components            `json:"components"`
	Security   []SecurityRequirement `json:"security,omitempty"`
}

// Info is the info object of a Document.
type Info struct {
	Title       string   `json:"title"`
	Version     string   `json:"version"`
	Description string   `json:"description,omitempty"`
	License     *License `json:"license,omitempty"`
}

// License is the license of the API, info.license.
type License struct {
	// Name is the license name, e.g. "MIT".
	Name string `json:"name"`
	// URL is where the license text is, if anywhere.
	URL string `json:"url,omitempty"`
}

// Server is one entry of a servers list.
type Server struct {
	URL         string `json:"url"`
	Description string `json:"description,omitempty"`
}

// Tag is one entry of the top-level tags list.
type Tag struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// PathItem holds the operations of one path. Servers is set only on paths
// that lie outside the base path of the document's server.
type PathItem struct {
	Get     *Operation `json:"get,omitempty"`
	Put     *Operation `json:"put,omitempty"`
	Post    *Operation `json:"post,omitempty"`
	Delete  *Operation `json:"delete,omitempty"`
	Options *Operation `json:"options,omitempty"`
	Head    *Operation `json:"head,omitempty"`
	Patch   *Operation `json:"patch,omitempty"`
	Trace   *Operation `json:"trace,omitempty"`
	Servers []Server   `json:"servers,omitempty"`
}

// Operation is one method of one path.
type Operation struct {
	Tags        []string             `json:"tags,omitempty"`
	Summary     string               `json:"summary,omitempty"`
	Description string               `json:"description,omitempty"`
	OperationID string               `json:"operationId"`
	Parameters  []*Parameter         `json:"parameters,omitempty"`
	RequestBody *RequestBody         `json:"requestBody,omitempty"`
	Responses   map[string]*Response `json:"responses"`
	Deprecated  bool                 `json:"deprecated,omitempty"`
	// Pagination names, on a list that pages by cursor, the query
	// parameter a client sends and the members of the answer it reads, so
	// that a generic client helper can walk every page.
	Pagination *Pagination `json:"x-pagination,omitempty"`
	// Security is nil to inherit the document's security, and points to an
	// empty list on a public operation.
	Security *[]SecurityRequirement `json:"security,omitempty"`
}

// Pagination is the x-pagination extension of a list operation: send the
// answer's NextField as the CursorParam query parameter to get the next
// page, until the answer has no NextField; ItemsField holds each page's
// items.
type Pagination struct {
	CursorParam string `json:"cursorParam"`
	NextField   string `json:"nextField"`
	ItemsField  string `json:"itemsField"`
}

// Parameter is a path or query parameter.
type Parameter struct {
	Name        string  `json:"name"`
	In          string  `json:"in"`
	Description string  `json:"description,omitempty"`
	Required    bool    `json:"required,omitempty"`
	Deprecated  bool    `json:"deprecated,omitempty"`
	Style       string  `json:"style,omitempty"`
	Explode     *bool   `json:"explode,omitempty"`
	Schema      *Schema `json:"schema"`
}

// RequestBody is the body of an operation, one schema per media type.
type RequestBody struct {
	Description string                `json:"description,omitempty"`
	Content     map[string]*MediaType `json:"content"`
	Required    bool                  `json:"required,omitempty"`
	// Limit is the largest body the route reads, in bytes (after
	// decompression where the route accepts a Content-Encoding); a larger
	// one is a 413.
	Limit int64 `json:"x-body-limit,omitempty"`
	// Encodings are the Content-Encodings the route accepts besides
	// identity; any other is a 415.
	Encodings []string `json:"x-content-encodings,omitempty"`
}

// Response is one response of an operation.
type Response struct {
	Description string                `json:"description"`
	Headers     map[string]*Header    `json:"headers,omitempty"`
	Content     map[string]*MediaType `json:"content,omitempty"`
}

// Header is a response header, or a reference to a component header.
type Header struct {
	Ref         string  `json:"$ref,omitempty"`
	Description string  `json:"description,omitempty"`
	Schema      *Schema `json:"schema,omitempty"`
}

// MediaType is the content of a body under one media type.
type MediaType struct {
	Schema *Schema `json:"schema,omitempty"`
	// Example is shown by the docs UI instead of one it makes up from the
	// schema.
	Example json.RawMessage `json:"example,omitempty"`
}

// Components holds the reusable parts of a Document.
type Components struct {
	Schemas         map[string]*Schema         `json:"schemas"`
	Headers         map[string]*Header         `json:"headers,omitempty"`
	SecuritySchemes map[string]*SecurityScheme `json:"securitySchemes,omitempty"`
}

// SecurityScheme is an http or oauth2 security scheme.
type SecurityScheme struct {
	Type         string      `json:"type"`
	Description  string      `json:"description,omitempty"`
	Scheme       string      `json:"scheme,omitempty"`
	BearerFormat string      `json:"bearerFormat,omitempty"`
	Flows        *OAuthFlows `json:"flows,omitempty"`
	// OpenIDConnectURL is the discovery document of an openIdConnect
	// scheme.
	OpenIDConnectURL string `json:"openIdConnectUrl,omitempty"`
}

// OAuthFlows lists the OAuth 2 flows of a security scheme; only the
// password flow is used.
type OAuthFlows struct {
	Password *OAuthFlow `json:"password,omitempty"`
}

// OAuthFlow is one OAuth 2 flow.
type OAuthFlow struct {
	TokenURL string            `json:"tokenUrl"`
	Scopes   map[string]string `json:"scopes"`
}

// SecurityRequirement maps a security scheme name to the scopes it needs.
type SecurityRequirement map[string][]string

// Names of the security schemes of every document.
const (
	// SchemeBearer is the http bearer scheme a client uses with a JWT.
	SchemeBearer = "bearerAuth"
	// SchemeOAuthLogin is the OAuth 2 password flow documentation UIs use to
	// log in and obtain the JWT.
	SchemeOAuthLogin = "OAuthLogin"
	// SchemeClient is the http basic scheme of the routes meant for other
	// services, which send a client id and secret (client_secret_basic,
	// RFC 6749 section 2.3.1); only documents with such a route have it.
	SchemeClient = "clientAuth"
)

// methods lists the HTTP methods an OpenAPI 3.0 path item can hold, in the
// order its operations are visited.
var methods = []string{"GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"}

// slot returns where the operation of an upper-case method is held, or nil
// for a method OpenAPI 3.0 has no field for.
func (p *PathItem) slot(method string) **Operation {
	switch method {
	case "GET":
		return &p.Get
	case "PUT":
		return &p.Put
	case "POST":
		return &p.Post
	case "DELETE":
		return &p.Delete
	case "OPTIONS":
		return &p.Options
	case "HEAD":
		return &p.Head
	case "PATCH":
		return &p.Patch
	case "TRACE":
		return &p.Trace
	}
	return nil
}

// operations yields the operations of p with their methods, in the order of
// methods.
func (p *PathItem) operations() iter.Seq2[string, *Operation] {
	return func(yield func(string, *Operation) bool) {
		for _, m := range methods {
			if op := *p.slot(m); op != nil && !yield(m, op) {
				return
			}
		}
	}
}
