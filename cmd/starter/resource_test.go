package main

import (
	"go/format"
	"io"
	"maps"
	"reflect"
	"strings"
	"testing"
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

// NewWithOptions builds the service.
func NewWithOptions(db *bun.DB, cfg router.Config, opts Options) (*router.Router, error) {
	cursors := newCursors()
	users := repositories.NewUsers(db, database.WithCursors(cursors), database.WithCount(opts.Count))
	cfg.Controllers = append([]router.Controller{
		controllers.NewUsers(users),
	}, cfg.Controllers...)
	return router.New(cfg)
}
`,
	"app/models/user.go":                        "package models\n\n// User is a user.\ntype User struct{ ID int64 }\n\n// Record is taken.\ntype Record struct{}\n",
	"migrations/20250601000000_create_users.go": "package migrations\n",
}

func TestResource(t *testing.T) {
	t.Parallel()
	root := writeTree(t, serviceTree)
	var out strings.Builder
	if err := resource(root, "order_items", []string{"sku:string", "qty:int", "state:enum(open,done)", "gift:bool?"}, &out); err != nil {
		t.Fatal(err)
	}
	got := readTree(t, root)
	for _, name := range []string{
		"app/models/order_item.go", "app/dto/order_item.go", "app/repositories/order_items.go", "app/repositories/records.go",
		"app/controllers/order_items.go", "app/controllers/listing.go", "migrations/tables.go", "tests/integration/order_items_test.go",
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
	if !strings.Contains(got["app/controllers/order_items.go"], `"/order-items"`) {
		t.Error("the controller is not mounted at /order-items")
	}
	if !strings.Contains(got["app/models/order_item.go"], `{Columns: []string{"state"}}, {Columns: []string{"gift"}}`) {
		t.Errorf("the model does not index its filter columns:\n%s", got["app/models/order_item.go"])
	}
	app := got["app/app.go"]
	for _, want := range []string{
		"return []any{(*models.User)(nil), (*models.OrderItem)(nil)}",
		"\t\tcontrollers.NewUsers(users),\n\t\tcontrollers.NewOrderItems(repositories.NewOrderItems(db, database.WithCursors(cursors), database.WithCount(opts.Count))),\n\t}, cfg.Controllers...)",
	} {
		if !strings.Contains(app, want) {
			t.Errorf("app/app.go lacks %q:\n%s", want, app)
		}
	}

	t.Run("a second resource shares the helpers and is registered after the first", func(t *testing.T) {
		if err := resource(root, "invoices", []string{"total:float64"}, io.Discard); err != nil {
			t.Fatal(err)
		}
		again := readTree(t, root)
		if again["app/repositories/records.go"] != got["app/repositories/records.go"] {
			t.Error("the shared records.go was rewritten")
		}
		if !strings.Contains(again["app/app.go"], "(*models.OrderItem)(nil), (*models.Invoice)(nil)}") {
			t.Errorf("the second model is not listed:\n%s", again["app/app.go"])
		}
	})
}

func TestResourceRefusesWithoutWriting(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		args   []string
		extra  map[string]string
		saying string
	}{
		{"an existing resource", []string{"users", "x:int"}, nil, "a resource named users exists"},
		{"a resource whose file exists", []string{"orders", "x:int"}, map[string]string{"app/controllers/orders.go": "package controllers\n"}, "is there already"},
		{"a name the package declares", []string{"records", "x:int"}, nil, "which user.go declares already"},
		{"a reserved word of SQL", []string{"rows", "x:int"}, nil, "reserved word of SQL"},
		{"a singular Go keyword", []string{"funcs", "x:int"}, nil, "Go keyword"},
		{"a name that is not plural", []string{"staff", "x:int"}, nil, "want a plural"},
		{"a name in CamelCase", []string{"Orders", "x:int"}, nil, "snake_case"},
		{"a bad field spec", []string{"orders", "customer:string", "amount:money"}, nil, `unknown type "money"`},
		{"a bad enum", []string{"orders", "status:enum(a,,b)"}, nil, "enum value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			files := maps.Clone(serviceTree)
			maps.Copy(files, tt.extra)
			root := writeTree(t, files)
			err := resource(root, tt.args[0], tt.args[1:], io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.saying) {
				t.Fatalf("error %v, want one saying %q", err, tt.saying)
			}
			if got := readTree(t, root); !maps.Equal(got, files) {
				t.Error("a refused resource changed files")
			}
		})
	}
}
