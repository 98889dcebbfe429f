// Package app is the example service a new project keeps, edits or deletes:
// its controllers, DTOs, repositories and Bun models, wired onto the router
// plugin by New.
package app
