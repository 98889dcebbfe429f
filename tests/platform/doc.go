// Package platform runs the tests of the platform module from the
// service's module. platform/ is a Go module of its own (what services
// require as a library), which go test ./... at the repository root does
// not enter; this package makes the README's one test command cover it.
package platform
