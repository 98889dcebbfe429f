// Package paging provides the paging every route handler receives: the
// page/limit pair parsed from the query string, the query fields a list route
// embeds to document them (page and limit, and the cursor of keyset paging),
// the signed cursors themselves, and the flat paging response envelope.
//
// The examples show page and limit parsed (Parse) and a sortable list
// route (SortQuery).
package paging
