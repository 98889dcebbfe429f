package main

import (
	"bytes"
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

// appFile is where the service lists its models and controllers, in the
// lists func Models and func Controllers return.
const (
	appFile         = "app/app.go"
	controllersFunc = "Controllers"
)

// isControllerType reports whether t is router.Controller, the element
// type of the controllers list.
func isControllerType(t ast.Expr) bool {
	sel, ok := t.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Controller"
}

// insertion is text to put at an offset of a file.
type insertion struct {
	offset int
	text   string
}

// register returns app/app.go with the resource's model appended to the
// list Models returns, and its controller to the list Controllers returns.
// It finds both lists with go/parser, so app.go needs no markers; the
// controller's repository takes the list options of Deps (cursors and count
// strategy) as the example's users do.
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
	for _, imp := range []string{"app/controllers", "app/models", "app/repositories"} {
		if !imports(f, r.Module+"/"+imp) {
			return file{}, fmt.Errorf("%s does not import %s/%s, which the registration uses", appFile, r.Module, imp)
		}
	}
	model := fmt.Sprintf("(*models.%s)(nil)", r.Singular)
	ctrl := fmt.Sprintf("controllers.New%s(repositories.New%s(d.DB, d.List...))", r.Plural, r.Plural)
	var edits []insertion
	models := findList(f, "Models", func(t ast.Expr) bool { id, ok := t.(*ast.Ident); return ok && id.Name == "any" })
	if models == nil {
		return file{}, fmt.Errorf("%s: found no []any{...} list of models in func Models; add %s to it by hand", appFile, model)
	}
	edits = append(edits, appendTo(fset, models, model))
	ctrls := findList(f, controllersFunc, isControllerType)
	if ctrls == nil || !declares(f, controllersFunc, "d") {
		return file{}, fmt.Errorf("%s: found no []router.Controller{...} list in func %s(d Deps); add %s to it by hand", appFile, controllersFunc, ctrl)
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

// unregister returns app/app.go without the model singular in the list
// Models returns and without the controller plural (any call of
// controllers.New<plural>, whatever its arguments) in NewWithOptions, and
// says what it took out.
func unregister(root, plural, singular string) (file, []string, error) {
	name := filepath.Join(root, filepath.FromSlash(appFile))
	src, err := os.ReadFile(name)
	if err != nil {
		return file{}, nil, err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return file{}, nil, err
	}
	model := fmt.Sprintf("(*models.%s)(nil)", singular)
	var reps []replacement
	var removed []string
	take := func(lit *ast.CompositeLit, match func(ast.Expr) bool, what string) {
		if lit == nil {
			return
		}
		for i, e := range lit.Elts {
			if match(e) {
				reps = append(reps, elementRange(fset, src, lit, i))
				removed = append(removed, what)
				return
			}
		}
	}
	take(findList(f, "Models", func(t ast.Expr) bool { id, ok := t.(*ast.Ident); return ok && id.Name == "any" }),
		func(e ast.Expr) bool {
			text := src[fset.Position(e.Pos()).Offset:fset.Position(e.End()).Offset]
			return strings.Join(strings.Fields(string(text)), "") == model
		}, model+" in Models")
	take(findList(f, controllersFunc, isControllerType), func(e ast.Expr) bool {
		call, ok := e.(*ast.CallExpr)
		if !ok {
			return false
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		pkg, ok := sel.X.(*ast.Ident)
		return ok && pkg.Name == "controllers" && sel.Sel.Name == "New"+plural
	}, "controllers.New"+plural+" in "+controllersFunc)
	if len(reps) == 0 {
		return file{appFile, src}, nil, nil
	}
	slices.SortFunc(reps, func(a, b replacement) int { return b.start - a.start })
	out := slices.Clone(src)
	for _, r := range reps {
		out = slices.Concat(out[:r.start], out[r.end:])
	}
	data, err := format.Source(out)
	if err != nil {
		return file{}, nil, fmt.Errorf("%s after removing the registration: %w", appFile, err)
	}
	return file{appFile, data}, removed, nil
}

// elementRange is the text that removing element i of lit takes out: its
// lines when it has lines of its own, else the element with the comma
// that joins it to its neighbour.
func elementRange(fset *token.FileSet, src []byte, lit *ast.CompositeLit, i int) replacement {
	line := func(p token.Pos) int { return fset.Position(p).Line }
	offset := func(p token.Pos) int { return fset.Position(p).Offset }
	elts := lit.Elts
	e := elts[i]
	prevEnd, nextStart := lit.Lbrace, lit.Rbrace
	if i > 0 {
		prevEnd = elts[i-1].End()
	}
	if i+1 < len(elts) {
		nextStart = elts[i+1].Pos()
	}
	if line(prevEnd) < line(e.Pos()) && line(nextStart) > line(e.End()) {
		start := bytes.LastIndexByte(src[:offset(e.Pos())], '\n') + 1
		end := offset(e.End())
		if nl := bytes.IndexByte(src[end:], '\n'); nl >= 0 {
			end += nl + 1
		}
		return replacement{start, end, ""}
	}
	switch {
	case i > 0:
		return replacement{offset(prevEnd), offset(e.End()), ""}
	case i+1 < len(elts):
		return replacement{offset(e.Pos()), offset(nextStart), ""}
	}
	return replacement{offset(e.Pos()), offset(lit.Rbrace), ""}
}
