// Package database provides the Bun database of the service: opened by DSN
// on PostgreSQL or SQLite with sensible pools, count-and-find paging over a
// select query, and the router extension that checks its health, creates
// the missing tables of the models (sync) and describes them in DBML.
package database
