// Package app is the example service a new project keeps, edits or deletes:
// users who sign up, log in with the OAuth2 password grant and are listed,
// read, updated and deleted. New wires it onto the router plugin:
//
//	models/        Bun models, the rows of the tables
//	dto/           request and response bodies, whose tags drive binding,
//	               validation and the spec
//	repositories/  queries on Bun that run on PostgreSQL and SQLite alike
//	controllers/   the routes, declared with the router's typed routes
//
// The tables come from the migrations package, applied by cmd/api at
// start-up or with its migrate subcommand.
package app
