package main

import (
	"errors"
	"go/format"
	"io"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fieldNow is the clock of the field tests: resource issues 120000, field
// the versions after it.
var fieldNow = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

// ordersTree returns a repository with the resource orders generated with
// fields.
func ordersTree(t *testing.T, fields ...string) string {
	t.Helper()
	root := writeTree(t, serviceTree)
	if err := resource(root, "orders", fields, resourceOptions{Now: fieldNow}, io.Discard); err != nil {
		t.Fatal(err)
	}
	return root
}

// fieldOK runs field, failing t on an error.
func fieldOK(t *testing.T, root string, opts fieldOptions, specs ...string) {
	t.Helper()
	opts.Now = fieldNow
	if err := field(root, "orders", specs, opts, io.Discard); err != nil {
		t.Fatal(err)
	}
}

// regenerated are the files of orders that field writes again.
var regenerated = []string{
	"app/models/order.go", "app/dto/order.go", "app/repositories/orders.go",
	"app/controllers/orders.go", "tests/integration/orders_test.go",
}

func TestFieldWritesWhatResourceWouldHave(t *testing.T) {
	t.Parallel()
	root := ordersTree(t, "title:string", "state:enum(open,done)")
	fieldOK(t, root, fieldOptions{}, "tracking_code:string?", "qty:int", "shipped_at:time")
	got := readTree(t, root)
	want := readTree(t, ordersTree(t, "title:string", "state:enum(open,done)", "tracking_code:string?", "qty:int", "shipped_at:time"))
	for _, name := range regenerated {
		if got[name] != want[name] {
			t.Errorf("%s after field is not what resource writes with the fields from the start:\n%s\nwant\n%s", name, got[name], want[name])
		}
	}

	migration := "migrations/20260501120001_add_tracking_code_qty_and_shipped_at_to_orders.go"
	src, ok := got[migration]
	if !ok {
		t.Fatalf("no %s; the tree holds %v", migration, maps.Keys(got))
	}
	if formatted, err := format.Source([]byte(src)); err != nil || string(formatted) != src {
		t.Errorf("%s is not gofmt'ed (%v)", migration, err)
	}
	for _, want := range []string{
		"TrackingCode *string `bun:\"tracking_code\"`",
		`"qty":        0,`,
		`"shipped_at": time.Unix(0, 0).UTC(),`,
		`addColumns(ctx, db, (*columns)(nil), defaults, "qty,id", "shipped_at,id")`,
		`dropColumns(ctx, db, (*columns)(nil), "qty,id", "shipped_at,id")`,
		"Migrations.MustRegister(add, drop)",
	} {
		if !strings.Contains(collapse(src), collapse(want)) {
			t.Errorf("%s lacks %q:\n%s", migration, want, src)
		}
	}
	if m, unedited, ok := readMarker([]byte(src), "example.com/svc"); !ok || !unedited || m.resource != "orders" {
		t.Errorf("%s carries the marker %+v (unedited %t, found %t), want one of orders, unedited", migration, m, unedited, ok)
	}
	if _, ok := got[columnsFile]; !ok {
		t.Errorf("%s, the helpers of the migration, was not written", columnsFile)
	}
	if !strings.HasSuffix(got[ledgerFile], "20260501120000 create_orders\n20260501120001 add_tracking_code_qty_and_shipped_at_to_orders\n") {
		t.Errorf("the ledger does not end with the migration's line:\n%s", got[ledgerFile])
	}
	if got["app/app.go"] != want["app/app.go"] {
		t.Errorf("field changed app/app.go:\n%s", got["app/app.go"])
	}
}

func TestFieldRemoveUndoesFieldButForTheMigrations(t *testing.T) {
	t.Parallel()
	root := ordersTree(t, "title:string", "state:enum(open,done)")
	before := readTree(t, root)
	fieldOK(t, root, fieldOptions{}, "flag:bool")
	fieldOK(t, root, fieldOptions{Remove: true}, "flag")
	got := readTree(t, root)
	for _, name := range regenerated {
		if got[name] != before[name] {
			t.Errorf("%s after field flag:bool and field --remove flag is not as before:\n%s\nwant\n%s", name, got[name], before[name])
		}
	}
	drop := got["migrations/20260501120002_drop_flag_from_orders.go"]
	for _, want := range []string{
		"Flag bool `bun:\"flag,notnull\"`",
		`"flag": false,`,
		// A filter: the index goes before the column (SQLite drops no
		// indexed column) and comes back with it.
		`dropColumns(ctx, db, (*columns)(nil), "flag")`,
		`addColumns(ctx, db, (*columns)(nil), defaults, "flag")`,
		"Migrations.MustRegister(drop, add)",
	} {
		if !strings.Contains(collapse(drop), collapse(want)) {
			t.Errorf("the migration that drops flag lacks %q:\n%s", want, drop)
		}
	}
	if _, ok := got["migrations/20260501120001_add_flag_to_orders.go"]; !ok {
		t.Error("field --remove deleted the migration that added the field: a database that ran it needs the drop")
	}

	removeOK(t, root, "orders")
	after, _ := withoutLedger(readTree(t, root))
	if want, _ := withoutLedger(readTree(t, writeTree(t, serviceTree))); !maps.Equal(after, want) {
		t.Errorf("remove orders after field left:\n%s", diffTrees(want, after))
	}
}

func TestRemoveTakesTheColumnHelpersWithTheirLastUser(t *testing.T) {
	t.Parallel()
	root := ordersTree(t, "title:string")
	generate(t, root, "invoices")
	fieldOK(t, root, fieldOptions{}, "note:text?")
	removeOK(t, root, "orders")
	tree := readTree(t, root)
	if _, ok := tree[columnsFile]; ok {
		t.Errorf("%s, used by the field migrations of orders alone, stays after remove orders", columnsFile)
	}
	if _, ok := tree["migrations/tables.go"]; !ok {
		t.Error("migrations/tables.go, which invoices uses, was removed")
	}

	root = ordersTree(t, "title:string")
	generate(t, root, "invoices")
	fieldOK(t, root, fieldOptions{}, "note:text?")
	if err := field(root, "invoices", []string{"memo:text?"}, fieldOptions{Now: fieldNow}, io.Discard); err != nil {
		t.Fatal(err)
	}
	removeOK(t, root, "orders")
	if _, ok := readTree(t, root)[columnsFile]; !ok {
		t.Errorf("%s was removed with orders while a migration of invoices uses it", columnsFile)
	}
}

func TestFieldRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, resource string
		specs          []string
		remove         bool
		edit           func(t *testing.T, root string)
		says           string
	}{
		{name: "an unknown resource", resource: "invoices", specs: []string{"x:int"}, says: "no resource named invoices was generated here"},
		{name: "a resource the starter did not generate", resource: "users", specs: []string{"x:int"},
			edit: func(t *testing.T, root string) {
				writeFile(t, root, "app/controllers/users.go", "package controllers\n")
			},
			says: "users was not generated by the starter (app/controllers/users.go has no starter marker): change it by hand"},
		{name: "a field it has", resource: "orders", specs: []string{"title:text"}, says: "orders has a field title already"},
		{name: "a column every resource has", resource: "orders", specs: []string{"version:int"}, says: "version is a column or query parameter every resource has already"},
		{name: "a reserved word", resource: "orders", specs: []string{"order:string"}, says: "reserved word of SQL"},
		{name: "a bad spec", resource: "orders", specs: []string{"note:strin"}, says: `unknown type "strin"`},
		{name: "an edited file", resource: "orders", specs: []string{"x:int"},
			edit: func(t *testing.T, root string) { appendFile(t, root, "app/dto/order.go", "// mine\n") },
			says: "edited since the starter generated them, and field would write them again: app/dto/order.go"},
		{name: "a model that records no fields", resource: "orders", specs: []string{"x:int"},
			edit: func(t *testing.T, root string) {
				p := filepath.Join(root, "app/models/order.go")
				data, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				writeFile(t, root, "app/models/order.go", string(fieldsLine.ReplaceAll(data, nil)))
			},
			says: "records no fields"},
		{name: "to drop, a field it lacks", resource: "orders", specs: []string{"note"}, remove: true, says: "orders has no field note (its fields: title and state)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			root := ordersTree(t, "title:string", "state:enum(open,done)")
			if tt.edit != nil {
				tt.edit(t, root)
			}
			before := snapshot(t, root)
			err := field(root, tt.resource, tt.specs, fieldOptions{Remove: tt.remove, Now: fieldNow}, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.says) {
				t.Errorf("error %v, want one saying %q", err, tt.says)
			}
			if after := snapshot(t, root); !maps.Equal(after, before) {
				t.Errorf("a refused field changed the tree:\n%s", diffTrees(before, after))
			}
		})
	}
	t.Run("dropping the only field", func(t *testing.T) {
		t.Parallel()
		root := ordersTree(t, "title:string")
		err := field(root, "orders", []string{"title"}, fieldOptions{Remove: true}, io.Discard)
		if err == nil || !strings.Contains(err.Error(), "a resource keeps one at least") {
			t.Errorf("error %v, want one saying a resource keeps a field", err)
		}
	})
}

// TestFieldAndRemoveAreAtomic fails the contract's regeneration, the last
// step, after every file is in place: the tree is as it was, byte for
// byte, the contract the step had half written included.
func TestFieldAndRemoveAreAtomic(t *testing.T) {
	t.Parallel()
	failing := func(dir string, _ io.Writer) error {
		writeFile(t, dir, "api/openapi.json", "half written")
		writeFile(t, dir, "clients/ts/src/schema.d.ts", "half written")
		return errors.New("spec: exit status 1")
	}
	for _, tt := range []struct {
		name string
		run  func(root string) error
	}{
		{"field", func(root string) error {
			return field(root, "orders", []string{"tracking_code:string?", "qty:int"}, fieldOptions{Now: fieldNow, refresh: failing}, io.Discard)
		}},
		{"field --remove", func(root string) error {
			return field(root, "orders", []string{"state"}, fieldOptions{Remove: true, Now: fieldNow, refresh: failing}, io.Discard)
		}},
		{"remove", func(root string) error { return remove(root, "orders", removeOptions{refresh: failing}, io.Discard) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			root := ordersTree(t, "title:string", "state:enum(open,done)")
			writeFile(t, root, "api/openapi.json", "{}")
			before := snapshot(t, root)
			err := tt.run(root)
			if err == nil || !strings.Contains(err.Error(), "spec: exit status 1") || !strings.Contains(err.Error(), "nothing was") {
				t.Errorf("error %v, want the step's, saying nothing changed", err)
			}
			if after := snapshot(t, root); !maps.Equal(after, before) {
				t.Errorf("%s that failed changed the tree:\n%s", tt.name, diffTrees(before, after))
			}
		})
	}
}

// snapshot reads every file below root, by slash path, and names every
// directory with a trailing slash: a temporary file or a directory left
// behind shows.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	files := readTree(t, root)
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			files[filepath.ToSlash(rel)+"/"] = ""
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// collapse makes every run of white space in s one space: gofmt aligns
// columns.
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// writeFile writes content to the file at the slash path name below root,
// creating its directory.
func writeFile(t *testing.T, root, name, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// appendFile appends content to the file at the slash path name below root.
func appendFile(t *testing.T, root, name, content string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, name, string(data)+content)
}
