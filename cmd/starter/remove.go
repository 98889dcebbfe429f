package main

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// generated is a file resource wrote, found by its marker.
type generated struct {
	// path is the slash path from the root.
	path string
	marker
	// unedited reports whether the file is as it was generated.
	unedited bool
}

// removeOptions are the options of remove.
type removeOptions struct {
	// Verbose says how long each step of writing the contract and the
	// clients took (-v).
	Verbose bool
	// refresh writes the contract and the clients again once the files are
	// gone; nil is refreshContract (with Verbose). A failure undoes the change.
	refresh func(dir string, out io.Writer) error
}

// remove deletes the generated resource name from the repository at root:
// its files and its registration in app/app.go, and the helpers the
// generated resources share (tables.go) with the
// last of them, then writes the contract and the clients again. It
// refuses, writing nothing, a resource it did not generate (users), one
// with a file edited since (see marker.go), and one whose names other code
// still uses; anything failing later puts every file back as it was.
func remove(root, name string, opts removeOptions, out io.Writer) error {
	if !resourceName.MatchString(name) {
		return fmt.Errorf("remove: name %q: want the resource's name, such as orders", name)
	}
	mod, err := modulePath(root)
	if err != nil {
		return fmt.Errorf("remove: %w", err)
	}
	all, err := findGenerated(root, mod)
	if err != nil {
		return fmt.Errorf("remove: %w", err)
	}
	var own, shared []generated
	others := map[string]bool{}
	for _, g := range all {
		switch g.resource {
		case name:
			own = append(own, g)
		case "":
			shared = append(shared, g)
		default:
			others[g.resource] = true
		}
	}
	if len(own) == 0 {
		return fmt.Errorf("remove: %w", notGenerated(root, name, "remove it by hand"))
	}
	singular, err := singularOf(name, own)
	if err != nil {
		return fmt.Errorf("remove %s: %w", name, err)
	}
	var changed []string
	for _, g := range own {
		if !g.unedited {
			changed = append(changed, g.path+" (edited)")
		}
	}
	unmarked, err := unmarkedFiles(root, Resource{Name: name, SingularName: singular}, all)
	if err != nil {
		return fmt.Errorf("remove %s: %w", name, err)
	}
	for _, p := range unmarked {
		changed = append(changed, p+" (no starter marker)")
	}
	if len(changed) > 0 {
		return fmt.Errorf("remove %s: not as the starter generated them, so nothing was removed: %s "+
			"(restore them, or delete the resource's files and its registration in %s by hand)", name, strings.Join(changed, ", "), appFile)
	}

	gone := own
	var kept []string
	if len(others) == 0 {
		for _, g := range shared {
			if g.unedited {
				gone = append(gone, g)
			} else {
				kept = append(kept, g.path)
			}
		}
	}
	app, unregistered, err := unregister(root, camel(name), camel(singular))
	if err != nil {
		return fmt.Errorf("remove %s: %w", name, err)
	}
	if err := checkUnused(root, mod, gone, app); err != nil {
		return fmt.Errorf("remove %s: %w", name, err)
	}
	if len(others) > 0 {
		// The helpers of field's migrations go with the last migration that
		// uses them, which may be of the resource removed.
		for _, g := range shared {
			if g.path == columnsFile && g.unedited && checkUnused(root, mod, append(slices.Clone(gone), g), app) == nil {
				gone = append(gone, g)
			}
		}
	}

	var c change
	for _, g := range gone {
		c.removes = append(c.removes, g.path)
	}
	if len(unregistered) > 0 {
		c.writes = []file{app}
	}
	refresh := opts.refresh
	if refresh == nil {
		refresh = contractRefresh(opts.Verbose)
	}
	var log strings.Builder
	if err := commit(root, c, refresh, &log); err != nil {
		return fmt.Errorf("remove %s: %w\n(nothing was removed: fix it and run the command again)", name, err)
	}
	if len(unregistered) > 0 {
		fmt.Fprintf(out, "rewrote %s: took out %s\n", app.path, strings.Join(unregistered, " and "))
	} else {
		fmt.Fprintf(out, "note: %s does not register %s; nothing to take out there\n", appFile, name)
	}
	for _, p := range c.removes {
		fmt.Fprintln(out, "removed", p)
	}
	fmt.Fprint(out, log.String())
	for _, p := range kept {
		fmt.Fprintf(out, "note: kept %s, edited since it was generated; no generated resource uses it now\n", p)
	}
	fmt.Fprintf(out, "removed the resource %s. A database that ran its migration keeps the table: "+
		"drop it there if it should go. Check with: go build ./... && go test ./...\n", name)
	return nil
}

// singularOf returns the singular of the resource name in snake_case,
// as the names of its model or DTO file (own) spell it: --singular may
// have chosen it. Without either file it is derived from name.
func singularOf(name string, own []generated) (string, error) {
	for _, dir := range []string{"app/models/", "app/dto/"} {
		for _, g := range own {
			if d, base := path.Split(g.path); d == dir {
				return strings.TrimSuffix(base, ".go"), nil
			}
		}
	}
	s, err := singularName(name, "")
	if err != nil {
		return "", fmt.Errorf("its model and DTO files are gone, so its singular is unknown: %w", err)
	}
	return s, nil
}

// generatedDirs are the directories resource writes into.
func generatedDirs() []string {
	var dirs []string
	for _, o := range (Resource{}).outputs() {
		if d := path.Dir(o.path); !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// findGenerated returns the files of generatedDirs that carry a marker.
func findGenerated(root, mod string) ([]generated, error) {
	var found []generated
	for _, dir := range generatedDirs() {
		entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir)))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
				continue
			}
			p := dir + "/" + e.Name()
			data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
			if err != nil {
				return nil, err
			}
			if m, unedited, ok := readMarker(data, mod); ok {
				found = append(found, generated{p, m, unedited})
			}
		}
	}
	return found, nil
}

// unmarkedFiles returns the files at the places of r's own files (not the
// shared ones) that carry no marker of r: a file the starter did not
// write, or whose marker was taken out, where it would have written one.
func unmarkedFiles(root string, r Resource, marked []generated) ([]string, error) {
	ours := map[string]bool{}
	for _, g := range marked {
		if g.resource == r.Name {
			ours[g.path] = true
		}
	}
	var paths []string
	for _, o := range r.outputs() {
		if o.once {
			continue
		}
		pattern := o.path
		if o.template == "migration.go.tmpl" {
			pattern = "migrations/*_create_" + r.Name + ".go"
		}
		matches, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(pattern)))
		if err != nil {
			return nil, err
		}
		for _, m := range matches {
			rel, err := filepath.Rel(root, m)
			if err != nil {
				return nil, err
			}
			if rel = filepath.ToSlash(rel); !ours[rel] {
				paths = append(paths, rel)
			}
		}
	}
	return paths, nil
}

// notGenerated explains why there is no generated resource name: a
// resource by that name without markers is someone's own code, for which
// the error says todo ("remove it by hand").
func notGenerated(root, name, todo string) error {
	for _, p := range []string{"app/controllers/" + name + ".go", "app/repositories/" + name + ".go", "tests/integration/" + name + "_test.go"} {
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(p))); err == nil {
			return fmt.Errorf("%s was not generated by the starter (%s has no starter marker): %s", name, p, todo)
		}
	}
	if matches, _ := filepath.Glob(filepath.Join(root, "migrations", "*_create_"+name+".go")); len(matches) > 0 {
		rel, _ := filepath.Rel(root, matches[0])
		return fmt.Errorf("%s was not generated by the starter (%s has no starter marker): %s", name, filepath.ToSlash(rel), todo)
	}
	return fmt.Errorf("no resource named %s was generated here", name)
}

// checkUnused refuses a removal that would leave code using what it
// deletes: a name a deleted file declares, used by a file of the same
// directory (package) or, exported, through an import of its package.
// app is app/app.go as it will be.
func checkUnused(root, mod string, gone []generated, app file) error {
	fset := token.NewFileSet()
	declared := map[string]map[string]bool{} // directory → names
	deleted := map[string]bool{}
	for _, g := range gone {
		deleted[g.path] = true
		f, err := parser.ParseFile(fset, filepath.Join(root, filepath.FromSlash(g.path)), nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		dir := path.Dir(g.path)
		if declared[dir] == nil {
			declared[dir] = map[string]bool{}
		}
		for _, n := range topLevelNames(f) {
			if !strings.Contains(n, ".") {
				declared[dir][n] = true
			}
		}
	}
	var uses []string
	err := walkGo(root, func(rel string, src []byte) error {
		if deleted[rel] {
			return nil
		}
		if rel == app.path {
			src = app.data
		}
		// Without SkipObjectResolution: usesOf reads what the parser
		// resolves.
		f, err := parser.ParseFile(fset, rel, src, 0)
		if err != nil {
			return err
		}
		for _, u := range usesOf(f, path.Dir(rel), mod, declared) {
			uses = append(uses, fmt.Sprintf("%s:%d uses %s", rel, fset.Position(u.Pos()).Line, u.name))
		}
		return nil
	})
	if err != nil {
		return err
	}
	if len(uses) > 0 {
		return fmt.Errorf("other code uses what it would delete, so nothing was removed: %s", strings.Join(uses, "; "))
	}
	return nil
}

// use is a name of a deleted file that code uses.
type use struct {
	ast.Node
	name string
}

// usesOf returns the uses in f, a file of directory dir, of the names
// declared (by directory) in the files to delete.
func usesOf(f *ast.File, dir, mod string, declared map[string]map[string]bool) []use {
	local := declared[dir]
	imported := map[string]map[string]bool{} // import name in f → names
	for _, imp := range f.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		rest, ok := strings.CutPrefix(p, mod+"/")
		if !ok || declared[rest] == nil {
			continue
		}
		name := path.Base(p)
		if imp.Name != nil {
			name = imp.Name.Name
		}
		imported[name] = declared[rest]
	}
	var uses []use
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if x, ok := sel.X.(*ast.Ident); ok && x.Obj == nil && imported[x.Name][sel.Sel.Name] {
				uses = append(uses, use{sel, x.Name + "." + sel.Sel.Name})
			}
		}
		return true
	})
	// The parser resolves the names a file declares itself (a local
	// createTable := … included); those it leaves unresolved are the
	// package's, from its other files, or the universe's.
	for _, id := range f.Unresolved {
		if local[id.Name] {
			uses = append(uses, use{id, id.Name})
		}
	}
	return uses
}

// walkGo calls fn with every Go file below root, by slash path, skipping
// the directories rename skips.
func walkGo(root string, fn func(rel string, src []byte) error) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if skipped(root, p, d) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return fn(filepath.ToSlash(rel), src)
	})
}
