// Package paging provides the paging every route handler receives: the
// page/limit pair parsed from the query string, the query fields a list route
// embeds to document them, and the flat paging response envelope.
package paging
