// Package testkit holds the helpers every test suite of this repository
// shares: what to do when a machine lacks a program a test needs (skip with
// one visible line, or fail under CI), a loopback server whose shutdown can
// never hang, requests through a Fiber app read in full, and commands bound
// only by the test's own deadline.
//
// It is imported by tests only; nothing in the service depends on it.
package testkit
