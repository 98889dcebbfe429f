// Package models holds the Bun models of the example service: plain structs
// whose bun tags name the tables and columns the repositories query.
package models
