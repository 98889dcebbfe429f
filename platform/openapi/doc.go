// Package openapi provides the spec registry: OpenAPI 3.0 schemas generated
// by reflection from Go types, operations generated from route declarations,
// and the cached document built from them. One Registry serves one
// application; nothing is kept at package level.
//
// A route's Go types are the single source of truth. The router calls
// AddRoute once per route at start-up, where the types are reflected and the
// declaration is checked, and serves JSON, which is built on first use:
//
//	reg := openapi.New(openapi.Config{Title: "Users API", ServerURL: "/api"})
//	op, in, err := reg.AddRoute(openapi.Route{
//		Method: "GET", Path: "/api/users/:id", Summary: "Get a user",
//		Input:  reflect.TypeFor[GetUserInput](),
//		Output: reflect.TypeFor[dto.User](),
//	})
//	spec, err := reg.JSON()
//
// Named struct types become component schemas named after the Go type
// (paging.Page[dto.User] is "UserPage"); other types are inline. Struct
// fields are documented by the tags json, doc, format, example,
// default, minimum, maximum, pattern and validate (the go-playground rules
// required, oneof, len, min, max, gte, lte, gt, lt, email, uuid and url).
//
// An Input type binds the request: fields tagged path or query are
// parameters, the field named Body is the request body, and untagged
// embedded structs such as paging.Query are flattened. AddRoute analyses it
// once and returns the route's model: the Operation the document renders
// and the Input whose every field carries the Schema the document gives it,
// which a router binds and checks requests by.
//
// Names are given by one set of rules, used by binding, by every error
// message and by the document: the first element of the path, query, form
// or json tag, the form tag falling back to the json name and then to the
// Go name.
//
// The example of Registry.AddRoute prints what the document makes of a
// route.
package openapi
