// Package migrations is the schema history of the example service: Go
// migrations for Bun's migrate package, so that one history runs on
// PostgreSQL and SQLite alike. Each file NNNNNNNNNNNNNN_name.go registers
// one migration; its name comes from the file name.
//
// cmd/api applies them at start-up (MIGRATE_ON_START) and through its
// migrate subcommand; tests apply them with Up.
package migrations
