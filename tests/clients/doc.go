// Package clients checks the committed API clients: that they are what
// task clients generates from the committed contract, and that each
// iterates every page of the users list against the running service. The
// Go client is a module of its own (clients/go), which go test ./... does
// not enter; the TypeScript client needs Node.js.
package clients
