// Package repositories holds one repository per resource of the example
// service. They are written against Bun only, so the same queries run on
// PostgreSQL and SQLite, and they report what a caller branches on with
// sentinel errors instead of driver errors.
package repositories
