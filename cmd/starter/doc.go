// Command starter turns a clone of this repository into a service of its
// own, grows it a resource at a time, and takes back a resource it grew:
//
//	go run ./cmd/starter rename github.com/acme/orders [--title "Orders API"]
//	go run ./cmd/starter resource orders customer:string amount_cents:int64 'status:enum(pending,paid,shipped)' 'note:string?' 'paid_at:time?'
//	go run ./cmd/starter field orders 'tracking_code:string?'
//	go run ./cmd/starter field --remove orders tracking_code
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
// By default rename vendors the platform: the service owns a copy of
// platform/ as MODULE/platform, a module its go.mod replaces with the
// folder. rename --library makes it require the platform as a library
// instead (github.com/asapjs/fiber-template/platform at --platform-version,
// default the newest release platform/CHANGELOG.md names): the platform's
// imports keep their path, platform/ and its tests are removed, every
// go.mod drops the platform's replace, the tasks and CI steps that run
// platform/ go, and go mod tidy runs with the caller's environment. It is
// all or nothing, as field and remove are.
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
// The model's header records the resource's fields. field generates the
// resource's model, DTOs, repository, controller and integration test
// again from them with the fields added (or, with --remove, the field
// dropped), as resource would have generated them with those fields from
// the start, and writes a migration that adds (drops) the columns: an
// optional one nullable, a required one with a default for the rows that
// exist (its type's zero value, an enum's first value, the Unix epoch);
// the down of a drop adds the column back. It refuses a resource it did
// not generate or whose files were edited since, a field it has (or, to
// drop, lacks), a reserved name and a bad spec.
//
// remove deletes a generated resource's files, its registration and, with
// the last resource, the helpers the generated resources share. It
// refuses a resource whose files it did not write or that were edited
// since, and one whose names other code still uses.
//
// rename, resource, field and remove then write the contract (api/) and
// the Go and TypeScript clients again. field and remove plan every file
// first, write the new ones beside their targets and rename them into
// place at the end: when anything fails, the contract's generation
// included, every file is put back as it was.
//
// All of them work on the repository in the current directory, or in the
// one -C names.
package main
