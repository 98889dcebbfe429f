package openapi

import (
	"slices"
)

// The names a cursor-paged list uses on the wire: the query parameter of
// paging.Cursor and the members of paging.Page.
const (
	cursorParam = "cursor"
	nextField   = "next_cursor"
	itemsField  = "data"
)

// pagination returns the x-pagination extension of rt: set when rt answers
// a page (its output sends Link headers) and takes a cursor, nil otherwise.
func pagination(rt Route, in *input) *Pagination {
	if !outputIs(rt.Output, linkedType) {
		return nil
	}
	takesCursor := slices.ContainsFunc(in.params, func(p *Parameter) bool {
		return p.In == "query" && p.Name == cursorParam
	})
	if !takesCursor {
		return nil
	}
	return &Pagination{CursorParam: cursorParam, NextField: nextField, ItemsField: itemsField}
}
