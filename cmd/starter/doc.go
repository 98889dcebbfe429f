// Command starter turns a clone of this repository into a service of its
// own, and grows it a resource at a time:
//
//	go run ./cmd/starter rename github.com/acme/orders
//	go run ./cmd/starter resource orders customer:string amount_cents:int64 'status:enum(pending,paid,shipped)' note:string? paid_at:time?
//
// rename rewrites the module path in every go.mod of the repository (with
// golang.org/x/mod/modfile), every import and every mention of it in Go
// source (with go/parser and go/format), and the project name in
// Taskfile.yml, Dockerfile, docker-compose.yml, deploy/ and the README's
// title. Running it again with the same path changes nothing.
//
// resource writes a Bun model, its DTOs, a repository with filtered keyset
// paging, a controller, a migration and an integration test, all from the
// text/template files in templates/, formatted with go/format, and
// registers the model and the controller in app/app.go. It checks
// everything first and writes nothing when the name exists, is a reserved
// word, or a field spec is bad.
//
// Both work on the repository in the current directory, or in the one
// -C names.
package main
