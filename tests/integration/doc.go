// Package integration tests the service over HTTP, built with app.New as
// cmd/api builds it, against a real PostgreSQL from pgtest and against
// SQLite. It holds tests only; see docs/testing.md for how to run them.
package integration
