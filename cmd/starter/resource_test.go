package main

import (
	"go/format"
	"io"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseFields(t *testing.T) {
	t.Parallel()
	got, err := parseFields([]string{"customer:string", "note:text?", "amount_cents:int64", "status:enum(pending,paid,in-transit)", "paid_at:time?", "ref:uuid"})
	if err != nil {
		t.Fatal(err)
	}
	want := []Field{
		{Name: "customer", Type: "string"},
		{Name: "note", Type: "text", Optional: true},
		{Name: "amount_cents", Type: "int64"},
		{Name: "status", Type: "enum", Values: []string{"pending", "paid", "in-transit"}},
		{Name: "paid_at", Type: "time", Optional: true},
		{Name: "ref", Type: "uuid"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}

	bad := []struct{ spec, says string }{
		{"customer", "want name:type"},
		{"Customer:string", "want name:type"},
		{"customer:str", `unknown type "str"`},
		{"customer:string??", "want name:type"},
		{"status:enum", "an enum lists its values"},
		{"status:enum()", "lists its values"},
		{"status:enum(a,a)", "listed twice"},
		{"status:enum(Paid)", "enum value"},
		{"size:int(4)", "only enum takes values"},
		{"order:string", "reserved word of SQL"},
		{"type:string", "Go keyword"},
		{"id:int64", "every resource has already"},
		{"q:string", "every resource has already"},
		{"bad__name:int", "empty word"},
	}
	for _, tt := range bad {
		t.Run(tt.spec+" is refused", func(t *testing.T) {
			_, err := parseFields([]string{tt.spec})
			if err == nil || !strings.Contains(err.Error(), tt.says) {
				t.Errorf("error %v, want one saying %q", err, tt.says)
			}
		})
	}
	t.Run("a field named twice is refused", func(t *testing.T) {
		if _, err := parseFields([]string{"a:int", "a:string"}); err == nil || !strings.Contains(err.Error(), "named twice") {
			t.Errorf("error %v, want one saying it is named twice", err)
		}
	})
}

// serviceTree is the part of a repository that resource reads: go.mod,
// app/app.go with its two lists, and the example's model.
var serviceTree = map[string]string{
	"go.mod": "module example.com/svc\n\ngo 1.26.0\n",
	"app/app.go": `package app

import (
	"github.com/uptrace/bun"

	"example.com/svc/app/controllers"
	"example.com/svc/app/models"
	"example.com/svc/app/repositories"
	"example.com/svc/platform/database"
	"example.com/svc/platform/router"
)

// Models are the models.
func Models() []any {
	return []any{(*models.User)(nil)}
}

// Deps are what the controllers are built on.
type Deps struct {
	DB    *bun.DB
	List  []database.Option
	Users *repositories.Users
}

// Controllers are the controllers.
func Controllers(d Deps) []router.Controller {
	return []router.Controller{
		controllers.NewUsers(d.Users),
	}
}
`,
	"app/models/user.go":                        "package models\n\n// User is a user.\ntype User struct{ ID int64 }\n\n// Entry is taken.\ntype Entry struct{}\n",
	"app/repositories/records.go":               "package repositories\n\n// records are the rows every repository shares.\ntype records[T any] struct{}\n",
	"migrations/20250601000000_create_users.go": "package migrations\n",
}

func TestResource(t *testing.T) {
	t.Parallel()
	root := writeTree(t, serviceTree)
	var out strings.Builder
	if err := resource(root, "order_items", []string{"sku:string", "qty:int", "state:enum(open,done)", "gift:bool?"}, resourceOptions{}, &out); err != nil {
		t.Fatal(err)
	}
	got := readTree(t, root)
	for _, name := range []string{
		"app/models/order_item.go", "app/dto/order_item.go", "app/repositories/order_items.go",
		"app/controllers/order_items.go", "migrations/tables.go", "tests/integration/order_items_test.go",
	} {
		src, ok := got[name]
		if !ok {
			t.Errorf("%s was not written", name)
			continue
		}
		if formatted, err := format.Source([]byte(src)); err != nil || string(formatted) != src {
			t.Errorf("%s is not gofmt'ed (%v)", name, err)
		}
	}
	if got["app/repositories/records.go"] != serviceTree["app/repositories/records.go"] {
		t.Error("records.go, the service's own, was rewritten")
	}
	if !strings.Contains(got["app/controllers/order_items.go"], `"/order-items"`) {
		t.Error("the controller is not mounted at /order-items")
	}
	if !strings.Contains(got["app/models/order_item.go"], `{Columns: []string{"state"}}, {Columns: []string{"gift"}}`) {
		t.Errorf("the model does not index its filter columns:\n%s", got["app/models/order_item.go"])
	}
	app := got["app/app.go"]
	for _, want := range []string{
		"return []any{(*models.User)(nil), (*models.OrderItem)(nil)}",
		"\t\tcontrollers.NewUsers(d.Users),\n\t\tcontrollers.NewOrderItems(repositories.NewOrderItems(d.DB, d.List...)),\n\t}\n}",
	} {
		if !strings.Contains(app, want) {
			t.Errorf("app/app.go lacks %q:\n%s", want, app)
		}
	}

	t.Run("a second resource shares the helpers and is registered after the first", func(t *testing.T) {
		if err := resource(root, "invoices", []string{"total:float64"}, resourceOptions{}, io.Discard); err != nil {
			t.Fatal(err)
		}
		again := readTree(t, root)
		if again["migrations/tables.go"] != got["migrations/tables.go"] {
			t.Error("the shared tables.go was rewritten")
		}
		if !strings.Contains(again["app/app.go"], "(*models.OrderItem)(nil), (*models.Invoice)(nil)}") {
			t.Errorf("the second model is not listed:\n%s", again["app/app.go"])
		}
	})
}

func TestResourceRefusesWithoutWriting(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		args     []string
		singular string
		extra    map[string]string
		saying   string
	}{
		{"an existing resource", []string{"users", "x:int"}, "", nil, "a resource named users exists"},
		{"a resource whose file exists", []string{"orders", "x:int"}, "", map[string]string{"app/controllers/orders.go": "package controllers\n"}, "is there already"},
		{"a name the package declares", []string{"entries", "x:int"}, "", nil, "which user.go declares already"},
		{"a reserved word of SQL", []string{"rows", "x:int"}, "", nil, "reserved word of SQL"},
		{"a singular Go keyword", []string{"funcs", "x:int"}, "", nil, "Go keyword"},
		{"a singular Go keyword given", []string{"funcs", "x:int"}, "func", nil, "Go keyword"},
		{"a singular name", []string{"invoice", "x:int"}, "", nil, "want a plural, such as invoices"},
		{"a singular snake_case name", []string{"order_item", "x:int"}, "", nil, "want a plural, such as order_items"},
		{"a name whose singular is the same word", []string{"news", "x:int"}, "", nil, "say the singular with --singular"},
		{"another such name", []string{"sheep", "x:int"}, "", nil, "same word"},
		{"a third", []string{"series", "x:int"}, "", nil, "same word"},
		{"a singular in CamelCase", []string{"orders", "x:int"}, "Order", nil, "--singular"},
		{"a name in CamelCase", []string{"Orders", "x:int"}, "", nil, "snake_case"},
		{"a bad field spec", []string{"orders", "customer:string", "amount:money"}, "", nil, `unknown type "money"`},
		{"a bad enum", []string{"orders", "status:enum(a,,b)"}, "", nil, "enum value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			files := maps.Clone(serviceTree)
			maps.Copy(files, tt.extra)
			root := writeTree(t, files)
			err := resource(root, tt.args[0], tt.args[1:], resourceOptions{Singular: tt.singular}, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.saying) {
				t.Fatalf("error %v, want one saying %q", err, tt.saying)
			}
			if got := readTree(t, root); !maps.Equal(got, files) {
				t.Error("a refused resource changed files")
			}
		})
	}
}

func TestResourceNames(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, singular string
		// model is the model's file, typ its Go type.
		model, typ string
	}{
		{"statuses", "", "app/models/status.go", "Status"},
		{"people", "", "app/models/person.go", "Person"},
		{"categories", "", "app/models/category.go", "Category"},
		{"order_items", "", "app/models/order_item.go", "OrderItem"},
		{"addresses", "", "app/models/address.go", "Address"},
		{"viruses", "", "app/models/virus.go", "Virus"},
		{"news", "news", "app/models/news.go", "News"},
		{"caches", "cache", "app/models/cache.go", "Cache"},
		{"orders", "order", "app/models/order.go", "Order"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			root := writeTree(t, serviceTree)
			if err := resource(root, tt.name, []string{"title:string"}, resourceOptions{Singular: tt.singular}, io.Discard); err != nil {
				t.Fatal(err)
			}
			got := readTree(t, root)
			if !strings.Contains(got[tt.model], "\ntype "+tt.typ+" struct {") {
				t.Errorf("%s does not declare type %s:\n%s", tt.model, tt.typ, got[tt.model])
			}
			ctrl := got["app/controllers/"+tt.name+".go"]
			if !strings.Contains(ctrl, "var Err"+tt.typ+"NotFound = ") {
				t.Errorf("the controller does not declare Err%sNotFound", tt.typ)
			}
			if strings.Contains(ctrl, "a new id") {
				t.Error("the controller speaks of a new id")
			}
		})
	}
}

func TestMigrationVersionsAreUnique(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	t.Run("four resources made in one second", func(t *testing.T) {
		t.Parallel()
		root := writeTree(t, serviceTree)
		for _, name := range []string{"orders", "invoices", "shipments", "refunds"} {
			if err := resource(root, name, []string{"x:int"}, resourceOptions{Now: now.Add(300 * time.Millisecond)}, io.Discard); err != nil {
				t.Fatal(err)
			}
		}
		var got []string
		for name := range readTree(t, root) {
			if strings.HasPrefix(name, "migrations/2026") {
				got = append(got, name)
			}
		}
		slices.Sort(got)
		want := []string{
			"migrations/20260501120000_create_orders.go", "migrations/20260501120001_create_invoices.go",
			"migrations/20260501120002_create_shipments.go", "migrations/20260501120003_create_refunds.go",
		}
		if !slices.Equal(got, want) {
			t.Errorf("migrations %v, want %v", got, want)
		}
	})

	t.Run("a removed resource's version is not issued again", func(t *testing.T) {
		t.Parallel()
		root := writeTree(t, serviceTree)
		for _, step := range []func() error{
			func() error {
				return resource(root, "gadgets", []string{"x:int"}, resourceOptions{Now: now}, io.Discard)
			},
			func() error { return remove(root, "gadgets", removeOptions{}, io.Discard) },
			func() error {
				return resource(root, "widgets", []string{"x:int"}, resourceOptions{Now: now}, io.Discard)
			},
		} {
			if err := step(); err != nil {
				t.Fatal(err)
			}
		}
		tree := readTree(t, root)
		if _, ok := tree["migrations/20260501120001_create_widgets.go"]; !ok {
			t.Errorf("widgets got no migration of the version after gadgets'; migrations/ holds %v", slices.Sorted(maps.Keys(tree)))
		}
		if want := "20260501120000 create_gadgets\n20260501120001 create_widgets\n"; !strings.HasSuffix(tree["migrations/versions.txt"], want) {
			t.Errorf("migrations/versions.txt reads\n%s\nwant it to end with\n%s", tree["migrations/versions.txt"], want)
		}
	})
}

func TestGeneratedFilesCarryTheirMarker(t *testing.T) {
	t.Parallel()
	root := writeTree(t, serviceTree)
	if err := resource(root, "orders", []string{"x:int"}, resourceOptions{}, io.Discard); err != nil {
		t.Fatal(err)
	}
	for name, content := range readTree(t, root) {
		if _, ok := serviceTree[name]; ok && name != appFile || name == "migrations/versions.txt" {
			continue // the ledger of versions is every migration's, and only ever grows
		}
		m, unedited, ok := readMarker([]byte(content), "example.com/svc")
		switch {
		case name == appFile:
			if ok {
				t.Errorf("%s, shared by hand-written code, carries a marker", name)
			}
			continue
		case !ok:
			t.Errorf("%s carries no marker", name)
			continue
		case !unedited:
			t.Errorf("%s does not match its own marker", name)
		}
		shared := strings.HasSuffix(name, "/tables.go")
		if want := map[bool]string{true: "", false: "orders"}[shared]; m.resource != want {
			t.Errorf("%s is marked for %q, want %q", name, m.resource, want)
		}
		if _, unedited, _ := readMarker([]byte(content+"// more\n"), "example.com/svc"); unedited {
			t.Errorf("%s with a line added still counts as unedited", name)
		}
	}
}
