// Command starter turns a clone of this repository into a service of its
// own:
//
//	go run ./cmd/starter rename github.com/acme/orders
//
// rename rewrites the module path in every go.mod of the repository (with
// golang.org/x/mod/modfile), every import and every mention of it in Go
// source (with go/parser and go/format), and the project name in
// Taskfile.yml, Dockerfile, docker-compose.yml, deploy/ and the README's
// title. Running it again with the same path changes nothing.
//
// It works on the repository in the current directory, or in the one -C
// names.
package main
