// Package bench measures the router against raw Fiber in the same run: a
// list route with paging, query binding and validation, declared through
// the router with and without JWT, next to the same route written by hand.
// Ratios, not absolute times, are what bench/README.md reports.
package bench
