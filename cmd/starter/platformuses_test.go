package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// platformUse is a use of the platform's exported name (pkg.Name) in a
// file of the template.
type platformUse struct{ file, name string }

// platformUses returns the uses of names (each pkg.Name, pkg a package of
// the platform) in the files under root that a service made in library
// mode keeps: in Go files, a selector of the package imported from the
// platform; in the starter's templates, the text pkg.Name.
func platformUses(t *testing.T, root string, names []string) []platformUse {
	t.Helper()
	var uses []platformUse
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, root+string(filepath.Separator)))
		if d.IsDir() {
			if slices.Contains(libraryDirs, rel) || d.Name() == ".git" || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		switch {
		case strings.HasSuffix(path, ".go"):
			used, err := goUses(path, names)
			for _, name := range used {
				uses = append(uses, platformUse{rel, name})
			}
			return err
		case strings.HasSuffix(path, ".tmpl"):
			text, err := os.ReadFile(path)
			for _, name := range names {
				if regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`).Match(text) {
					uses = append(uses, platformUse{rel, name})
				}
			}
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return uses
}

// goUses returns which of names the Go file at path selects from a
// package of the platform it imports.
func goUses(path string, names []string) ([]string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	imported := map[string]string{} // the file's name of a platform package → its name
	for _, spec := range f.Imports {
		p, _ := strconv.Unquote(spec.Path.Value)
		if !strings.HasPrefix(p, platformModule+"/") {
			continue
		}
		pkg := p[strings.LastIndex(p, "/")+1:]
		local := pkg
		if spec.Name != nil {
			local = spec.Name.Name
		}
		imported[local] = pkg
	}
	var used []string
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if x, ok := sel.X.(*ast.Ident); ok {
			if pkg, ok := imported[x.Name]; ok {
				if name := pkg + "." + sel.Sel.Name; slices.Contains(names, name) && !slices.Contains(used, name) {
					used = append(used, name)
				}
			}
		}
		return true
	})
	return used, nil
}
