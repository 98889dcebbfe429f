// Package problem provides RFC 9457 problem details: the one error body every
// endpoint of the service answers with, and declared errors that a route lists
// in its spec and a handler returns at run time.
package problem
