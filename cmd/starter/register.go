package main

import (
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// appFile is where the service lists its models and controllers.
const appFile = "app/app.go"

// insertion is text to put at an offset of a file.
type insertion struct {
	offset int
	text   string
}

// register returns app/app.go with the resource's model added to the list
// Models returns, and its controller to the controllers NewWithOptions
// mounts. It finds both lists with go/parser, so app.go needs no markers;
// the controller's repository takes the same listing options (cursors and
// count strategy) as the example's users.
func (r Resource) register(root string) (file, error) {
	name := filepath.Join(root, filepath.FromSlash(appFile))
	src, err := os.ReadFile(name)
	if err != nil {
		return file{}, err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return file{}, err
	}
	for _, imp := range []string{"app/controllers", "app/models", "app/repositories", "platform/database"} {
		if !imports(f, r.Module+"/"+imp) {
			return file{}, fmt.Errorf("%s does not import %s/%s, which the registration uses", appFile, r.Module, imp)
		}
	}
	model := fmt.Sprintf("(*models.%s)(nil)", r.Singular)
	ctrl := fmt.Sprintf("controllers.New%s(repositories.New%s(db, database.WithCursors(cursors), database.WithCount(opts.Count)))", r.Plural, r.Plural)
	var edits []insertion
	models := findList(f, "Models", func(t ast.Expr) bool { id, ok := t.(*ast.Ident); return ok && id.Name == "any" })
	if models == nil {
		return file{}, fmt.Errorf("%s: found no []any{...} list of models in func Models; add %s to it by hand", appFile, model)
	}
	edits = append(edits, appendTo(fset, models, model))
	ctrls := findList(f, "NewWithOptions", func(t ast.Expr) bool {
		sel, ok := t.(*ast.SelectorExpr)
		return ok && sel.Sel.Name == "Controller"
	})
	if ctrls == nil || !declares(f, "NewWithOptions", "cursors", "opts", "db") {
		return file{}, fmt.Errorf("%s: found no []router.Controller{...} list in func NewWithOptions with db, opts and cursors in scope; add %s to it by hand", appFile, ctrl)
	}
	edits = append(edits, appendTo(fset, ctrls, ctrl))
	slices.SortFunc(edits, func(a, b insertion) int { return b.offset - a.offset })
	out := string(src)
	for _, e := range edits {
		out = out[:e.offset] + e.text + out[e.offset:]
	}
	data, err := format.Source([]byte(out))
	if err != nil {
		return file{}, fmt.Errorf("%s after registration: %w", appFile, err)
	}
	return file{appFile, data}, nil
}

// imports reports whether f imports path.
func imports(f *ast.File, path string) bool {
	for _, imp := range f.Imports {
		if imp.Path.Value == `"`+path+`"` {
			return true
		}
	}
	return false
}

// findList returns the first slice literal in func fn whose element type
// elem accepts.
func findList(f *ast.File, fn string, elem func(ast.Expr) bool) *ast.CompositeLit {
	var found *ast.CompositeLit
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Name.Name != fn || fd.Body == nil {
			continue
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok || found != nil {
				return found == nil
			}
			if at, ok := lit.Type.(*ast.ArrayType); ok && at.Len == nil && elem(at.Elt) {
				found = lit
				return false
			}
			return true
		})
	}
	return found
}

// declares reports whether func fn has parameters or variables with every
// one of names.
func declares(f *ast.File, fn string, names ...string) bool {
	seen := map[string]bool{}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Name.Name != fn || fd.Body == nil {
			continue
		}
		for _, p := range fd.Type.Params.List {
			for _, n := range p.Names {
				seen[n.Name] = true
			}
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if as, ok := n.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
				for _, l := range as.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						seen[id.Name] = true
					}
				}
			}
			return true
		})
	}
	for _, n := range names {
		if !seen[n] {
			return false
		}
	}
	return true
}

// appendTo returns the insertion that adds expr as the last element of
// lit, on a line of its own when the list has one element a line.
func appendTo(fset *token.FileSet, lit *ast.CompositeLit, expr string) insertion {
	at := fset.Position(lit.Rbrace).Offset
	if len(lit.Elts) == 0 {
		return insertion{at, expr}
	}
	last := lit.Elts[len(lit.Elts)-1]
	if fset.Position(last.End()).Line == fset.Position(lit.Rbrace).Line {
		return insertion{fset.Position(last.End()).Offset, ", " + expr}
	}
	return insertion{at, strings.TrimLeft(expr, " ") + ",\n"}
}
