// Package plan analyses a route once: its path template and the fields of
// its input type, each with the name a client uses, where the value comes
// from (path, query, form body) and how to reach it in the struct. The
// router binds requests by the plan and the spec generator documents the
// same plan, so the two cannot disagree about a field.
//
// Names are given by one set of rules, used by binding, by every error
// message and by the document: the first element of the path, query, form
// or json tag, the form tag falling back to the json name and then to the
// Go name.
package plan
