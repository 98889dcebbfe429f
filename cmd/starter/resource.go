package main

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"go/format"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"text/template"
	"time"

	"github.com/asapjs/fiber-template/internal/migrationversion"
)

//go:embed templates/*.tmpl
var templateFS embed.FS

var templates = template.Must(template.New("").Funcs(template.FuncMap{
	"backquote": func(s string) string { return "`" + s + "`" },
	"tags":      tags,
	"lowerFirst": func(s string) string {
		if s == "" {
			return s
		}
		return strings.ToLower(s[:1]) + s[1:]
	},
	"title": func(s string) string {
		if s == "" {
			return s
		}
		return strings.ToUpper(s[:1]) + s[1:]
	},
	"join": strings.Join,
	"seq": func(n int) []int {
		s := make([]int, n)
		for i := range s {
			s[i] = i
		}
		return s
	},
	"searchedLabels": func(r Resource) string {
		var labels []string
		for _, f := range r.Searched() {
			labels = append(labels, f.Label())
		}
		return strings.Join(labels, " or ")
	},
}).ParseFS(templateFS, "templates/*.tmpl"))

// resourceName is the NAME of a resource: a plural, lower-case snake_case.
var resourceName = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// Resource is what the templates of one resource are executed with.
type Resource struct {
	// Module is the module path, the prefix of the imports.
	Module string
	// Platform is the import path of the platform: the library's
	// (platformModule) in library mode, else Module/platform (see
	// platformImport).
	Platform string
	// Name is the plural snake_case name: the table, the path and the file
	// names ("order_items").
	Name string
	// SingularName is the singular in snake_case: the model's file name and
	// the not-found code ("order_item").
	SingularName string
	// Plural and Singular are the Go names ("OrderItems", "OrderItem").
	Plural, Singular string
	// Fields are the fields, in the order given.
	Fields []Field
	// Migration is the migration's version, a UTC timestamp.
	Migration string
	// Admin is how the integration test gets an admin's token, by what the
	// repository offers: "helper" when the suite has userAPI.adminToken,
	// "bootstrap" when app.Options can create an admin at start-up (its
	// Admin field, an *app.NewUser), "issuer" when the suite trusts a
	// test issuer (resourceAPI.token, starter rename --auth=issuer), and
	// "mint" otherwise: a token signed with the suite's secret, as the
	// service signs them.
	Admin string
}

// Path is the resource's path below the base path: "/order-items".
func (r Resource) Path() string { return "/" + strings.ReplaceAll(r.Name, "_", "-") }

// Label is the plural in prose: "order items".
func (r Resource) Label() string { return strings.ReplaceAll(r.Name, "_", " ") }

// SingularLabel is the singular in prose: "order item".
func (r Resource) SingularLabel() string { return strings.ReplaceAll(r.SingularName, "_", " ") }

// Code is the problem code of the not-found error: "order_item_not_found".
func (r Resource) Code() string { return r.SingularName + "_not_found" }

// Filters are the fields the list filters on.
func (r Resource) Filters() []Field { return r.pick(Field.Filter) }

// Enums are the fields of an enum type.
func (r Resource) Enums() []Field { return r.pick(func(f Field) bool { return f.Type == "enum" }) }

// SortKeys are the columns the list may be sorted by: the creation time
// and the sortable fields.
func (r Resource) SortKeys() []string {
	keys := []string{"created_at"}
	for _, f := range r.pick(Field.Sortable) {
		keys = append(keys, f.Name)
	}
	return keys
}

// Searched are the fields q looks in.
func (r Resource) Searched() []Field { return r.pick(Field.Searched) }

// Required are the fields a body must have.
func (r Resource) Required() []Field {
	return r.pick(func(f Field) bool { return !f.Optional })
}

// Optional lists the fields a body may leave out (and a merge patch
// remove with null).
func (r Resource) Optional() []Field { return r.pick(func(f Field) bool { return f.Optional }) }

// OptionalTexts are the optional string and text fields: "" is a value of
// theirs, apart from absent.
func (r Resource) OptionalTexts() []Field {
	return r.pick(func(f Field) bool { return f.Optional && f.Searched() })
}

// Invalid are the fields some value of which is refused.
func (r Resource) Invalid() []Field { return r.pick(func(f Field) bool { return f.Invalid() != "" }) }

// Times are the fields of type time.
func (r Resource) Times() []Field { return r.pick(func(f Field) bool { return f.Type == "time" }) }

// HasTime reports whether a field is a time.Time.
func (r Resource) HasTime() bool { return len(r.Times()) > 0 }

// UUIDs are the fields of type uuid.
func (r Resource) UUIDs() []Field { return r.pick(func(f Field) bool { return f.Type == "uuid" }) }

// UsesStrings reports whether the integration test needs package strings.
func (r Resource) UsesStrings() bool {
	return len(r.pick(func(f Field) bool { return strings.HasPrefix(f.Invalid(), "strings.") })) > 0
}

func (r Resource) pick(keep func(Field) bool) []Field {
	var out []Field
	for _, f := range r.Fields {
		if keep(f) {
			out = append(out, f)
		}
	}
	return out
}

// modelTemplate is the template of the model, whose header records the
// resource's fields.
const modelTemplate = "model.go.tmpl"

// output is one file resource writes: a template and where its output
// goes, relative to the root. once files are shared by every resource and
// written only when missing.
type output struct {
	template, path string
	once           bool
}

func (r Resource) outputs() []output {
	return []output{
		{modelTemplate, "app/models/" + r.SingularName + ".go", false},
		{"dto.go.tmpl", "app/dto/" + r.SingularName + ".go", false},
		{"repository.go.tmpl", "app/repositories/" + r.Name + ".go", false},
		{"controller.go.tmpl", "app/controllers/" + r.Name + ".go", false},
		{"migration.go.tmpl", "migrations/" + r.Migration + "_create_" + r.Name + ".go", false},
		{"tables.go.tmpl", "migrations/tables.go", true},
		{"integration_test.go.tmpl", "tests/integration/" + r.Name + "_test.go", false},
	}
}

// resourceOptions are the flags of resource.
type resourceOptions struct {
	// Singular is the singular of the name, in snake_case; "" derives it
	// from the name (see singularName).
	Singular string
	// Now is the time the migration's version is taken from; zero is the
	// current time.
	Now time.Time
}

// resource generates the resource name with the field specs in the
// repository at root. Every check runs and every file is rendered before
// the first one is written.
func resource(root, name string, specs []string, opts resourceOptions, out io.Writer) error {
	r, err := newResource(root, name, specs, opts)
	if err != nil {
		return fmt.Errorf("resource: %w", err)
	}
	files, err := r.render(root)
	if err != nil {
		return fmt.Errorf("resource %s: %w", name, err)
	}
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f.path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("resource %s: %w", name, err)
		}
		if err := os.WriteFile(p, f.data, 0o644); err != nil {
			return fmt.Errorf("resource %s: %w", name, err)
		}
		fmt.Fprintln(out, "wrote", f.path)
	}
	fmt.Fprintf(out, "generated %s: GET/POST %s, GET/PUT/PATCH/DELETE %s/:id; try it with go test -run '^Test%sResource$' ./tests/integration\n",
		r.Name, r.Path(), r.Path(), r.Plural)
	return nil
}

// newResource checks the name and the fields.
func newResource(root, name string, specs []string, opts resourceOptions) (Resource, error) {
	if !resourceName.MatchString(name) {
		return Resource{}, fmt.Errorf("name %q: want a plural in lower-case snake_case, such as orders or order_items", name)
	}
	if err := checkName("resource", name); err != nil {
		return Resource{}, err
	}
	one, err := singularName(name, opts.Singular)
	if err != nil {
		return Resource{}, err
	}
	fields, err := parseFields(specs)
	if err != nil {
		return Resource{}, err
	}
	r, err := resourceIn(root, name, one)
	if err != nil {
		return Resource{}, err
	}
	r.Fields = fields
	r.Migration, err = migrationversion.NextIn(filepath.Join(root, "migrations"), timeOr(opts.Now))
	if err != nil {
		return Resource{}, err
	}
	return r, nil
}

// resourceIn returns the resource name, of singular one, as the repository
// at root would have it generated, without its fields and migration.
func resourceIn(root, name, one string) (Resource, error) {
	mod, err := modulePath(root)
	if err != nil {
		return Resource{}, err
	}
	platform, err := platformImport(root, mod)
	if err != nil {
		return Resource{}, err
	}
	appNames, err := declaredNames(token.NewFileSet(), filepath.Join(root, "app"))
	if err != nil {
		return Resource{}, err
	}
	suiteNames, err := declaredNames(token.NewFileSet(), filepath.Join(root, "tests", "integration"))
	if err != nil {
		return Resource{}, err
	}
	admin := "mint"
	if _, ok := suiteNames["resourceAPI.token"]; ok {
		admin = "issuer"
	} else if _, ok := suiteNames["userAPI.adminToken"]; ok {
		admin = "helper"
	} else if _, ok := appNames["NewUser"]; ok && hasField(root, "app", "Options", "Admin") {
		admin = "bootstrap"
	}
	return Resource{
		Admin:        admin,
		Module:       mod,
		Platform:     platform,
		Name:         name,
		SingularName: one,
		Plural:       camel(name),
		Singular:     camel(one),
	}, nil
}

// timeOr returns t, or the current time when t is zero.
func timeOr(t time.Time) time.Time {
	if t.IsZero() {
		return time.Now()
	}
	return t
}

// file is a rendered file.
type file struct {
	path string
	data []byte
}

// render executes the templates and the registration in app/app.go, and
// refuses a resource whose files or Go names exist already.
func (r Resource) render(root string) ([]file, error) {
	if matches, _ := filepath.Glob(filepath.Join(root, "migrations", "*_create_"+r.Name+".go")); len(matches) > 0 {
		return nil, fmt.Errorf("a resource named %s exists: %s", r.Name, matches[0])
	}
	var files []file
	for _, o := range r.outputs() {
		p := filepath.Join(root, filepath.FromSlash(o.path))
		if _, err := os.Stat(p); err == nil {
			if o.once {
				continue
			}
			return nil, fmt.Errorf("a resource named %s exists: %s is there already", r.Name, o.path)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		f, err := r.renderOutput(o)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	if err := checkNames(root, files); err != nil {
		return nil, err
	}
	app, err := r.register(root)
	if err != nil {
		return nil, err
	}
	ledger, err := r.ledger(root)
	if err != nil {
		return nil, err
	}
	return append(files, app, ledger), nil
}

// renderOutput executes the template of o with r and formats the result,
// which opens with its header: the model's records the fields (see
// withFields).
func (r Resource) renderOutput(o output) (file, error) {
	data, err := r.execute(o.template, r, o.path)
	if err != nil {
		return file{}, err
	}
	owner := r.Name
	if o.once {
		owner = ""
	}
	data = withHeader(data, owner, r.Module)
	if o.template == modelTemplate {
		data = withFields(data, r.Fields)
	}
	return file{o.path, data}, nil
}

// execute executes the template name with data and formats the result as
// the Go file path.
func (r Resource) execute(name string, data any, path string) ([]byte, error) {
	var buf bytes.Buffer
	if err := templates.ExecuteTemplate(&buf, name, data); err != nil {
		return nil, fmt.Errorf("template %s: %w", name, err)
	}
	src, err := format.Source(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("format %s: %w\n%s", path, err, buf.Bytes())
	}
	return src, nil
}

// ledger returns migrations/versions.txt with the line of the resource's
// migration added, so that its version is never issued again, even after
// remove deletes the file (see migrationversion).
func (r Resource) ledger(root string) (file, error) {
	return ledgerWith(root, migrationversion.Migration{Version: r.Migration, Name: "create_" + r.Name})
}

// ledgerWith returns migrations/versions.txt with m's line added.
func ledgerWith(root string, m migrationversion.Migration) (file, error) {
	dir := filepath.Join(root, "migrations")
	path, data, err := migrationversion.WithEntry(dir, m)
	if err != nil {
		return file{}, err
	}
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return file{}, err
	}
	return file{filepath.ToSlash(rel), data}, nil
}

// ASingular is the singular in prose with its article: "an order".
func (r Resource) ASingular() string {
	s := r.SingularLabel()
	if strings.ContainsRune("aeiou", rune(s[0])) {
		return "an " + s
	}
	return "a " + s
}
