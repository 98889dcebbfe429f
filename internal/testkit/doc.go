// Package testkit holds the helpers every test suite of this repository
// shares beyond the platform's servicetest: what to do when a machine lacks a
// program a test needs (skip with one visible line, or fail under CI), the
// service's binary started and awaited, the inputs a child process reads
// made known to go test's cache, and commands bound only by the test's own
// deadline.
//
// It is imported by tests only; nothing in the service depends on it.
package testkit
