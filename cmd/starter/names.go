package main

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// checkNames refuses files that declare a name their package declares
// already, such as a model of another resource with the same singular.
func checkNames(root string, files []file) error {
	fset := token.NewFileSet()
	for _, f := range files {
		dir := filepath.Join(root, filepath.Dir(filepath.FromSlash(f.path)))
		existing, err := declaredNames(fset, dir)
		if err != nil {
			return err
		}
		gen, err := parser.ParseFile(fset, f.path, f.data, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, name := range topLevelNames(gen) {
			if where, ok := existing[name]; ok {
				return fmt.Errorf("%s would declare %s, which %s declares already", f.path, name, where)
			}
		}
	}
	return nil
}

// declaredNames returns the top-level names the Go files of dir declare,
// with the file of each.
func declaredNames(fset *token.FileSet, dir string) (map[string]string, error) {
	names := map[string]string{}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return names, nil
	}
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, n := range topLevelNames(f) {
			names[n] = e.Name()
		}
	}
	return names, nil
}

// topLevelNames lists the package-level names f declares, methods as
// Type.Method.
func topLevelNames(f *ast.File) []string {
	var names []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Name.Name == "init" {
				continue
			}
			name := d.Name.Name
			if d.Recv != nil && len(d.Recv.List) == 1 {
				name = receiverName(d.Recv.List[0].Type) + "." + name
			}
			names = append(names, name)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					names = append(names, s.Name.Name)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.Name != "_" {
							names = append(names, n.Name)
						}
					}
				}
			}
		}
	}
	return names
}

func receiverName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return receiverName(e.X)
	case *ast.IndexExpr:
		return receiverName(e.X)
	case *ast.Ident:
		return e.Name
	}
	return ""
}

// hasField reports whether a Go file of dir declares the struct type
// typeName with a field named field.
func hasField(root, dir, typeName, field string) bool {
	found := false
	fset := token.NewFileSet()
	matches, _ := filepath.Glob(filepath.Join(root, dir, "*.go"))
	for _, m := range matches {
		f, err := parser.ParseFile(fset, m, nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok || ts.Name.Name != typeName {
				return !found
			}
			if st, ok := ts.Type.(*ast.StructType); ok {
				for _, fl := range st.Fields.List {
					for _, n := range fl.Names {
						found = found || n.Name == field
					}
				}
			}
			return false
		})
	}
	return found
}
