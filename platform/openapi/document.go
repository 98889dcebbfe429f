package openapi

import (
	"encoding/json"
	"iter"
)

// Document is an OpenAPI 3.0 document, the typed form of what JSON returns.
type Document struct {
	OpenAPI    string                `json:"openapi"`            // the OpenAPI Specification version the document follows
	Info       Info                  `json:"info"`               // metadata about the API: title, version, description, license
	Servers    []Server              `json:"servers"`            // where the API is served; each path is relative to a server's URL
	Tags       []Tag                 `json:"tags,omitempty"`     // the tags operations are grouped by, with their descriptions
	Paths      map[string]*PathItem  `json:"paths"`              // the operations of each path, keyed by the path template ("/users/{id}")
	Components Components            `json:"components"`         // the schemas, headers and security schemes the document references
	Security   []SecurityRequirement `json:"security,omitempty"` // the security requirements of an operation that declares none; any one of them suffices
}

// Info is the info object of a Document.
type Info struct {
	Title       string   `json:"title"`                 // the title of the API
	Version     string   `json:"version"`               // the version of the API (not of OpenAPI)
	Description string   `json:"description,omitempty"` // a longer description of the API; CommonMark
	License     *License `json:"license,omitempty"`     // the license of the API, if any
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
	URL         string `json:"url"`                   // the server's URL, absolute or relative to where the document is served
	Description string `json:"description,omitempty"` // what the server is, for a reader
}

// Tag is one entry of the top-level tags list.
type Tag struct {
	Name        string `json:"name"`                  // the tag's name, as operations list it
	Description string `json:"description,omitempty"` // what the operations with the tag have in common; CommonMark
}

// PathItem holds the operations of one path. Servers is set only on paths
// that lie outside the base path of the document's server.
type PathItem struct {
	Get     *Operation `json:"get,omitempty"`     // the GET operation of the path, if any
	Put     *Operation `json:"put,omitempty"`     // the PUT operation of the path, if any
	Post    *Operation `json:"post,omitempty"`    // the POST operation of the path, if any
	Delete  *Operation `json:"delete,omitempty"`  // the DELETE operation of the path, if any
	Options *Operation `json:"options,omitempty"` // the OPTIONS operation of the path, if any
	Head    *Operation `json:"head,omitempty"`    // the HEAD operation of the path, if any
	Patch   *Operation `json:"patch,omitempty"`   // the PATCH operation of the path, if any
	Trace   *Operation `json:"trace,omitempty"`   // the TRACE operation of the path, if any
	Servers []Server   `json:"servers,omitempty"` // the servers of the path's operations, in place of the document's
}

// Operation is one method of one path.
type Operation struct {
	Tags        []string             `json:"tags,omitempty"`        // the tags the operation is grouped under
	Summary     string               `json:"summary,omitempty"`     // a short summary of what the operation does
	Description string               `json:"description,omitempty"` // a longer explanation of the operation; CommonMark
	OperationID string               `json:"operationId"`           // the operation's unique id in the document, as generated clients name it
	Parameters  []*Parameter         `json:"parameters,omitempty"`  // the path, query and header parameters of the operation
	RequestBody *RequestBody         `json:"requestBody,omitempty"` // the request body, if the operation takes one
	Responses   map[string]*Response `json:"responses"`             // the possible responses, keyed by HTTP status code (or "default")
	Deprecated  bool                 `json:"deprecated,omitempty"`  // whether the operation is deprecated; clients should stop using it
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
	CursorParam string `json:"cursorParam"` // the query parameter that carries the cursor of the next page
	NextField   string `json:"nextField"`   // the member of the answer that holds the next page's cursor
	ItemsField  string `json:"itemsField"`  // the member of the answer that holds the page's items
}

// Parameter is a path or query parameter.
type Parameter struct {
	Name        string  `json:"name"`                  // the parameter's name, case-sensitive (as in the path template for a path parameter)
	In          string  `json:"in"`                    // where the parameter is: "path", "query", "header" or "cookie"
	Description string  `json:"description,omitempty"` // what the parameter means; CommonMark
	Required    bool    `json:"required,omitempty"`    // whether the parameter must be sent; always true for a path parameter
	Deprecated  bool    `json:"deprecated,omitempty"`  // whether the parameter is deprecated; clients should stop sending it
	Style       string  `json:"style,omitempty"`       // how an array or object value is serialised ("form" for a query parameter)
	Explode     *bool   `json:"explode,omitempty"`     // whether each array item is a parameter of its own (?a=1&a=2) rather than one list (?a=1,2)
	Schema      *Schema `json:"schema"`                // the schema of the parameter's value
}

// RequestBody is the body of an operation, one schema per media type.
type RequestBody struct {
	Description string                `json:"description,omitempty"` // what the body is; CommonMark
	Content     map[string]*MediaType `json:"content"`               // the body's schema, keyed by media type ("application/json")
	Required    bool                  `json:"required,omitempty"`    // whether the request must have a body
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
	Description string                `json:"description"`       // what the response means; OpenAPI requires one
	Headers     map[string]*Header    `json:"headers,omitempty"` // the response headers, keyed by name
	Content     map[string]*MediaType `json:"content,omitempty"` // the body's schema, keyed by media type; none for a response without a body
}

// Header is a response header, or a reference to a component header.
type Header struct {
	Ref         string  `json:"$ref,omitempty"`        // a reference to a component header ("#/components/headers/RequestId"); nothing else is then set
	Description string  `json:"description,omitempty"` // what the header carries; CommonMark
	Schema      *Schema `json:"schema,omitempty"`      // the schema of the header's value
}

// MediaType is the content of a body under one media type.
type MediaType struct {
	Schema *Schema `json:"schema,omitempty"` // the schema of the body under this media type
	// Example is shown by the docs UI instead of one it makes up from the
	// schema.
	Example json.RawMessage `json:"example,omitempty"`
}

// Components holds the reusable parts of a Document.
type Components struct {
	Schemas         map[string]*Schema         `json:"schemas"`                   // the reusable schemas, keyed by the name a $ref names them with
	Headers         map[string]*Header         `json:"headers,omitempty"`         // the reusable response headers, keyed by name
	SecuritySchemes map[string]*SecurityScheme `json:"securitySchemes,omitempty"` // the security schemes, keyed by the name security requirements use
}

// SecurityScheme is an http or oauth2 security scheme.
type SecurityScheme struct {
	Type         string      `json:"type"`                   // the kind of scheme: "http", "oauth2", "openIdConnect" or "apiKey"
	Description  string      `json:"description,omitempty"`  // what the scheme is, for a reader; CommonMark
	Scheme       string      `json:"scheme,omitempty"`       // the HTTP authorization scheme of an http scheme ("bearer", "basic")
	BearerFormat string      `json:"bearerFormat,omitempty"` // how a bearer token is formatted ("JWT"), a hint for a reader
	Flows        *OAuthFlows `json:"flows,omitempty"`        // the OAuth 2 flows of an oauth2 scheme
	// OpenIDConnectURL is the discovery document of an openIdConnect
	// scheme.
	OpenIDConnectURL string `json:"openIdConnectUrl,omitempty"`
}

// OAuthFlows lists the OAuth 2 flows of a security scheme; only the
// password flow is used.
type OAuthFlows struct {
	Password *OAuthFlow `json:"password,omitempty"` // the resource owner password flow, if the scheme has it
}

// OAuthFlow is one OAuth 2 flow.
type OAuthFlow struct {
	TokenURL string            `json:"tokenUrl"` // the token endpoint of the flow
	Scopes   map[string]string `json:"scopes"`   // the scopes a client may ask for, each with a short description
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
