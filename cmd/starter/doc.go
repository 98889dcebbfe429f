// Command starter turns a clone of this repository into a service of its
// own, grows it a resource at a time, and takes back a resource it grew:
//
//	go run ./cmd/starter rename github.com/acme/orders [--title "Orders API"]
//	go run ./cmd/starter resource orders customer:string amount_cents:int64 'status:enum(pending,paid,shipped)' 'note:string?' 'paid_at:time?'
//	go run ./cmd/starter remove orders
//
// rename rewrites the module path in every go.mod of the repository (with
// golang.org/x/mod/modfile), every import and every mention of it in Go
// source and text files, and the project name (the path's last element)
// in Taskfile.yml, Dockerfile, docker-compose.yml, deploy/ and the
// README's title. It names the service after the project: the docs title
// and description (cmd/api/serve.go) and the token issuer and audience
// (app/app.go), unless --title, --issuer or --audience say otherwise. The
// first rename of the template also replaces the template's name wherever
// it stands as a word. It leaves its own files (cmd/starter) and the lines
// that link to the template's repository alone. Running it again with the
// same path changes nothing.
//
// resource writes a Bun model, its DTOs, a repository with filtered keyset
// paging, a controller, a migration and an integration test, all from the
// text/template files in templates/, formatted with go/format, and
// registers the model and the controller in app/app.go. The singular of
// the name comes from go-pluralize's English rules, or --singular. It
// checks everything first and writes nothing when the name exists, is a
// reserved word or has no singular of its own, or a field spec is bad.
// Each file opens with a marker naming its resource and the hash of what
// was generated; each migration gets a version of its own, past the newest
// one in migrations/ and every one its ledger, migrations/versions.txt,
// says was issued (see internal/migrationversion), and a line there.
//
// remove deletes a generated resource's files, its registration and, with
// the last resource, the helpers the generated resources share. It
// refuses a resource whose files it did not write or that were edited
// since, and one whose names other code still uses.
//
// All of them work on the repository in the current directory, or in the
// one -C names.
package main
