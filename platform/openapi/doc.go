// Package openapi provides the spec registry: OpenAPI 3.0 schemas generated
// by reflection from Go types, operations generated from route declarations,
// and the cached document built from them. One Registry serves one
// application; nothing is kept at package level.
package openapi
