package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/asapjs/fiber-template/internal/migrationversion"
)

// fieldOptions are the flags of field.
type fieldOptions struct {
	// Remove drops the field named instead of adding fields.
	Remove bool
	// Verbose says how long each step of writing the contract and the
	// clients took (-v).
	Verbose bool
	// Now is the time the migration's version is taken from; zero is the
	// current time.
	Now time.Time
	// refresh writes the contract and the clients again once the files are
	// in place; nil is refreshContract (with Verbose). A failure undoes the change.
	refresh func(dir string, out io.Writer) error
}

// Templates of the files field writes besides the resource's own.
const (
	columnTemplate  = "column.go.tmpl"
	columnsTemplate = "columns.go.tmpl"
	columnsFile     = "migrations/columns.go"
)

// columnChange is what the template of a migration that adds or drops
// columns is executed with.
type columnChange struct {
	Resource Resource
	// Fields are the columns added, or dropped.
	Fields []Field
	// Drop makes the migration drop them, its down add them back.
	Drop bool
}

// Required are the fields whose columns are NOT NULL.
func (c columnChange) Required() []Field {
	return Resource{Fields: c.Fields}.Required()
}

// Indexed are the indexes on the columns, as addColumns takes them.
func (c columnChange) Indexed() []string {
	var ix []string
	for _, f := range c.Fields {
		ix = append(ix, f.Indexed()...)
	}
	return ix
}

// HasTime reports whether a column is a time.
func (c columnChange) HasTime() bool { return Resource{Fields: c.Fields}.HasTime() }

// field adds the fields specs to the generated resource name in the
// repository at root, or with opts.Remove drops the field specs names.
// It generates the resource's files again from its fields with the change,
// as resource would have generated them with those fields from the start
// (its create migration aside), writes a migration that adds (drops) the
// columns, and writes the contract and the clients again. It refuses,
// writing nothing, a resource it did not generate, one with a file edited
// since, a field that exists already (or, to drop, does not) and a bad
// spec; anything failing later puts every file back as it was.
func field(root, name string, specs []string, opts fieldOptions, out io.Writer) error {
	files, r, c, err := planField(root, name, specs, opts)
	if err != nil {
		return fmt.Errorf("field: %w", err)
	}
	what := "added " + fieldList(c.Fields) + " to"
	if c.Drop {
		what = "dropped " + fieldList(c.Fields) + " from"
	}
	refresh := opts.refresh
	if refresh == nil {
		refresh = contractRefresh(opts.Verbose)
	}
	var log bytes.Buffer
	if err := commit(root, change{writes: files}, refresh, &log); err != nil {
		return fmt.Errorf("field %s: %w\n(nothing was changed: fix it and run the command again)", name, err)
	}
	for _, f := range files {
		fmt.Fprintln(out, "wrote", f.path)
	}
	_, _ = log.WriteTo(out)
	fmt.Fprintf(out, "%s %s; migrate with go run ./cmd/api migrate up, try it with go test -run '^Test%sResource$' ./tests/integration\n",
		what, r.Name, r.Plural)
	return nil
}

// commit applies c in the repository at root and runs refresh there,
// guarding the contract and the clients it writes: when either fails, the
// tree is put back as it was.
//
// An interrupt (Ctrl-C, SIGTERM) meanwhile does not end the process: the
// commands of the contract that it ends fail, and commit undoes the
// change; one they outlive undoes it once they are done.
func commit(root string, c change, refresh func(string, io.Writer) error, out io.Writer) error {
	interrupt := make(chan os.Signal, 1)
	signal.Notify(interrupt, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(interrupt)
	a, err := c.apply(root)
	if err != nil {
		return err
	}
	if err := a.guard(contractOutputs...); err != nil {
		return errors.Join(err, a.undo())
	}
	err = refresh(root, out)
	select {
	case s := <-interrupt:
		err = errors.Join(fmt.Errorf("interrupted (%s)", s), err)
	default:
	}
	if err != nil {
		return errors.Join(err, a.undo())
	}
	return a.keep()
}

// fieldList is fields in prose: "tracking_code, paid and note".
func fieldList(fields []Field) string { return fieldNames(fields, ", ", " and ") }

// fieldNames joins the names of fields with sep, the last two with last.
func fieldNames(fields []Field, sep, last string) string {
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.Name
	}
	if len(names) < 2 {
		return strings.Join(names, sep)
	}
	return strings.Join(names[:len(names)-1], sep) + last + names[len(names)-1]
}

// planField checks everything and returns the files field writes, the
// resource with its new fields and the columns that change.
func planField(root, name string, specs []string, opts fieldOptions) ([]file, Resource, columnChange, error) {
	r, model, err := generatedResource(root, name)
	if err != nil {
		return nil, Resource{}, columnChange{}, err
	}
	c := columnChange{Drop: opts.Remove}
	if opts.Remove {
		if len(specs) != 1 {
			return nil, Resource{}, columnChange{}, fmt.Errorf("--remove takes the name of one field of %s", name)
		}
		i := slices.IndexFunc(r.Fields, func(f Field) bool { return f.Name == specs[0] })
		switch {
		case i < 0:
			return nil, Resource{}, columnChange{}, fmt.Errorf("%s has no field %s (its fields: %s)", name, specs[0], fieldList(r.Fields))
		case len(r.Fields) == 1:
			return nil, Resource{}, columnChange{}, fmt.Errorf("%s is the only field of %s, and a resource keeps one at least: remove the resource instead", specs[0], name)
		}
		c.Fields = []Field{r.Fields[i]}
		r.Fields = slices.Delete(r.Fields, i, i+1)
	} else {
		added, err := parseFields(specs)
		if err != nil {
			return nil, Resource{}, columnChange{}, err
		}
		for _, f := range added {
			if slices.ContainsFunc(r.Fields, func(g Field) bool { return g.Name == f.Name }) {
				return nil, Resource{}, columnChange{}, fmt.Errorf("%s has a field %s already", name, f.Name)
			}
		}
		c.Fields = added
		r.Fields = append(r.Fields, added...)
	}
	c.Resource = r

	var files []file
	for _, o := range r.outputs() {
		if o.once || o.template == "migration.go.tmpl" {
			continue
		}
		f, err := r.renderOutput(o)
		if err != nil {
			return nil, Resource{}, columnChange{}, err
		}
		if o.template == modelTemplate && o.path != model {
			return nil, Resource{}, columnChange{}, fmt.Errorf("the model of %s is %s, want %s", name, model, o.path)
		}
		if old, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f.path))); err != nil || !bytes.Equal(old, f.data) {
			files = append(files, f)
		}
	}
	migration, err := columnMigration(root, c, timeOr(opts.Now))
	if err != nil {
		return nil, Resource{}, columnChange{}, err
	}
	files = append(files, migration...)
	if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(columnsFile))); errors.Is(err, fs.ErrNotExist) {
		data, err := r.execute(columnsTemplate, r, columnsFile)
		if err != nil {
			return nil, Resource{}, columnChange{}, err
		}
		helpers := file{columnsFile, withHeader(data, "", r.Module)}
		if err := checkNames(root, []file{helpers}); err != nil {
			return nil, Resource{}, columnChange{}, err
		}
		files = append(files, helpers)
	} else if err != nil {
		return nil, Resource{}, columnChange{}, err
	}
	return files, r, c, nil
}

// columnMigration returns the migration of c, of a new version from now,
// and the ledger with its line.
func columnMigration(root string, c columnChange, now time.Time) ([]file, error) {
	version, err := migrationversion.NextIn(filepath.Join(root, "migrations"), now)
	if err != nil {
		return nil, err
	}
	names := fieldNames(c.Fields, "_", "_and_")
	m := migrationversion.Migration{Version: version, Name: "add_" + names + "_to_" + c.Resource.Name}
	if c.Drop {
		m.Name = "drop_" + names + "_from_" + c.Resource.Name
	}
	p := "migrations/" + m.File()
	data, err := c.Resource.execute(columnTemplate, c, p)
	if err != nil {
		return nil, err
	}
	ledger, err := ledgerWith(root, m)
	if err != nil {
		return nil, err
	}
	return []file{{p, withHeader(data, c.Resource.Name, c.Resource.Module)}, ledger}, nil
}

// generatedResource returns the generated resource name of the repository
// at root with the fields its model records, and the path of the model. It
// refuses a resource the starter did not generate, and one a file of which
// was edited since: field writes them again.
func generatedResource(root, name string) (Resource, string, error) {
	if !resourceName.MatchString(name) {
		return Resource{}, "", fmt.Errorf("name %q: want the resource's name, such as orders", name)
	}
	mod, err := modulePath(root)
	if err != nil {
		return Resource{}, "", err
	}
	all, err := findGenerated(root, mod)
	if err != nil {
		return Resource{}, "", err
	}
	var own []generated
	for _, g := range all {
		if g.resource == name {
			own = append(own, g)
		}
	}
	if len(own) == 0 {
		return Resource{}, "", notGenerated(root, name, "change it by hand")
	}
	model, create := "", ""
	var edited []string
	for _, g := range own {
		if !g.unedited && !strings.HasPrefix(g.path, "migrations/") {
			edited = append(edited, g.path)
		}
		switch dir, base := path.Split(g.path); {
		case dir == "app/models/":
			model = g.path
		case dir == "migrations/" && strings.HasSuffix(base, "_create_"+name+".go"):
			create = strings.TrimSuffix(base, "_create_"+name+".go")
		}
	}
	if len(edited) > 0 {
		return Resource{}, "", fmt.Errorf("%s: edited since the starter generated them, and field would write them again: %s "+
			"(restore them, or change the resource by hand)", name, strings.Join(edited, ", "))
	}
	if model == "" || create == "" {
		return Resource{}, "", fmt.Errorf("%s: its model or its create migration is gone; change the resource by hand", name)
	}
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(model)))
	if err != nil {
		return Resource{}, "", err
	}
	fields, ok, err := recordedFields(data)
	if err != nil {
		return Resource{}, "", fmt.Errorf("%s: %w", model, err)
	}
	if !ok {
		return Resource{}, "", fmt.Errorf("%s records no fields (the starter that generated it did not yet): change the resource by hand", model)
	}
	r, err := resourceIn(root, name, strings.TrimSuffix(path.Base(model), ".go"))
	if err != nil {
		return Resource{}, "", err
	}
	r.Fields, r.Migration = fields, create
	if unmarked, err := unmarkedFiles(root, r, all); err != nil {
		return Resource{}, "", err
	} else if len(unmarked) > 0 {
		return Resource{}, "", fmt.Errorf("%s: %s carry no starter marker; change the resource by hand", name, strings.Join(unmarked, ", "))
	}
	return r, model, nil
}
