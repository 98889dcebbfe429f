package openapi

import (
	"slices"

	"github.com/asapjs/fiber-template/platform/paging"
)

// The names a cursor-paged list uses on the wire: the members of
// paging.Page (its query parameter is paging.CursorParam).
const (
	nextField  = "next_cursor"
	itemsField = "data"
)

// pagination returns the x-pagination extension of rt: set when rt answers
// a page (its output sends Link headers) and takes a cursor, nil otherwise.
func pagination(rt Route, in *input) *Pagination {
	if !outputIs(rt.Output, linkedType) {
		return nil
	}
	takesCursor := slices.ContainsFunc(in.params, func(p *Parameter) bool {
		return p.In == "query" && p.Name == paging.CursorParam
	})
	if !takesCursor {
		return nil
	}
	return &Pagination{CursorParam: paging.CursorParam, NextField: nextField, ItemsField: itemsField}
}
