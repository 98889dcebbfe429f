package apidoc

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestExportedNamesHaveDocComments fails for each exported name of platform/
// that go doc would show without a comment: top-level functions, methods of
// exported types, types, variables and constants (a comment on a grouped
// declaration counts for its members, as go doc shows it), exported fields of
// exported structs and exported methods of exported interfaces (a comment
// above or beside the member).
func TestExportedNamesHaveDocComments(t *testing.T) {
	root := platformRoot(t)
	missing, files, err := undocumentedUnder(root)
	if err != nil {
		t.Fatalf("read %s: %v", root, err)
	}
	if files == 0 {
		t.Fatalf("no Go files under %s", root)
	}
	if len(missing) > 0 {
		t.Errorf("%d exported names of platform/ have no doc comment:\n%s", len(missing), strings.Join(missing, "\n"))
	}
}

// platformRoot is the platform directory, found by walking up from "..".
func platformRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("..")
	if err != nil {
		t.Fatalf("resolve ..: %v", err)
	}
	for filepath.Base(dir) != "platform" {
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no platform directory above this package")
		}
		dir = parent
	}
	return dir
}

// undocumentedUnder parses every non-test Go file under root, testdata
// left out, and lists its exported names without a doc comment as
// "platform/file.go:line Name", sorted, with the number of files read.
func undocumentedUnder(root string) ([]string, int, error) {
	var missing []string
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(filepath.Dir(root), path)
		if err != nil {
			return err
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return fmt.Errorf("parse %s: %w", rel, err)
		}
		files++
		for _, u := range undocumented(file) {
			missing = append(missing, fmt.Sprintf("%s:%d %s", filepath.ToSlash(rel), fset.Position(u.pos).Line, u.name))
		}
		return nil
	})
	slices.Sort(missing)
	return missing, files, err
}

// documented reports whether a comment group has text go doc shows: a
// directive such as //go:embed alone is not documentation.
func documented(groups ...*ast.CommentGroup) bool {
	for _, g := range groups {
		if g != nil && strings.TrimSpace(g.Text()) != "" {
			return true
		}
	}
	return false
}

// name is an exported name without a doc comment, where it is declared.
type name struct {
	pos  token.Pos
	name string
}

// undocumented lists the exported names of file without a doc comment.
func undocumented(file *ast.File) []name {
	var out []name
	for _, decl := range file.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			full, shown := funcName(d)
			if shown && !documented(d.Doc) {
				out = append(out, name{d.Name.Pos(), full})
			}
		case *ast.GenDecl:
			out = append(out, undocumentedSpecs(d)...)
		}
	}
	return out
}

// funcName is the name go doc shows for a function or method, and whether it
// shows it at all: an exported function, or an exported method of an
// exported type.
func funcName(d *ast.FuncDecl) (string, bool) {
	if !d.Name.IsExported() {
		return "", false
	}
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return d.Name.Name, true
	}
	recv := typeName(d.Recv.List[0].Type)
	if recv == "" || !ast.IsExported(recv) {
		return "", false
	}
	return recv + "." + d.Name.Name, true
}

// typeName is the name of a receiver's or an embedded field's type, without
// a pointer, a package or type arguments.
func typeName(expr ast.Expr) string {
	switch e := expr.(type) {
	case *ast.StarExpr:
		return typeName(e.X)
	case *ast.ParenExpr:
		return typeName(e.X)
	case *ast.IndexExpr:
		return typeName(e.X)
	case *ast.IndexListExpr:
		return typeName(e.X)
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.Ident:
		return e.Name
	}
	return ""
}

// undocumentedSpecs lists the exported types, variables and constants of a
// declaration without a doc comment, and the exported members of its
// exported types without one.
func undocumentedSpecs(d *ast.GenDecl) []name {
	var out []name
	for _, spec := range d.Specs {
		switch s := spec.(type) {
		case *ast.TypeSpec:
			if !s.Name.IsExported() {
				continue
			}
			if !documented(s.Doc, d.Doc) {
				out = append(out, name{s.Name.Pos(), s.Name.Name})
			}
			out = append(out, undocumentedMembers(s.Name.Name, s.Type)...)
		case *ast.ValueSpec:
			if documented(s.Doc, s.Comment, d.Doc) {
				continue
			}
			for _, n := range s.Names {
				if n.IsExported() {
					out = append(out, name{n.Pos(), n.Name})
				}
			}
		}
	}
	return out
}

// undocumentedMembers lists the exported fields of a struct type, or the
// exported methods of an interface type, that have no comment above or
// beside them; fields of an inline struct type are named by their path.
// An embedded field is named by its type; an embedded interface is not a
// member of its own.
func undocumentedMembers(owner string, typ ast.Expr) []name {
	var list *ast.FieldList
	isStruct := false
	switch t := typ.(type) {
	case *ast.StructType:
		list, isStruct = t.Fields, true
	case *ast.InterfaceType:
		list = t.Methods
	default:
		return nil
	}
	var out []name
	for _, f := range list.List {
		commented := documented(f.Doc, f.Comment)
		if len(f.Names) == 0 {
			if embedded := typeName(f.Type); isStruct && ast.IsExported(embedded) && !commented {
				out = append(out, name{f.Type.Pos(), owner + "." + embedded})
			}
			continue
		}
		for _, n := range f.Names {
			if !n.IsExported() {
				continue
			}
			if !commented {
				out = append(out, name{n.Pos(), owner + "." + n.Name})
			}
			if isStruct {
				out = append(out, undocumentedMembers(owner+"."+n.Name, f.Type)...)
			}
		}
	}
	return out
}
