// Package dto holds the request and response bodies of the example service.
// Their tags are the single source of truth of a route: json names the
// fields, validate is checked on every request and, with doc, example,
// format, enum and default, documents the field in the spec.
package dto
