package main

import (
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// platformUse is a use of the platform's exported name (pkg.Name) in a
// file of the template, with its line in a Go file.
type platformUse struct{ file, name string }

// platformUses returns the uses of names (each pkg.Name, pkg a package of
// the platform) in the files under root that a service made in library
// mode keeps: in Go files, a selector of the package imported from the
// platform (as remove finds the uses of what it deletes, usesOf); in the
// starter's templates, the text pkg.Name.
func platformUses(t *testing.T, root string, names []string) []platformUse {
	t.Helper()
	declared := map[string]map[string]bool{} // platform package → names
	patterns := make([]*regexp.Regexp, len(names))
	for i, name := range names {
		pkg, n, _ := strings.Cut(name, ".")
		if declared[pkg] == nil {
			declared[pkg] = map[string]bool{}
		}
		declared[pkg][n] = true
		patterns[i] = regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`)
	}
	var uses []platformUse
	fset := token.NewFileSet()
	err := walkGo(root, func(rel string, src []byte) error {
		if slices.ContainsFunc(libraryDirs, func(dir string) bool { return strings.HasPrefix(rel, dir+"/") }) {
			return nil
		}
		f, err := parser.ParseFile(fset, rel, src, 0)
		if err != nil {
			return err
		}
		// No directory of the template is a package of the platform: ""
		// declares nothing local.
		for _, u := range usesOf(f, "", platformModule, declared) {
			uses = append(uses, platformUse{fmt.Sprintf("%s:%d", rel, fset.Position(u.Pos()).Line), u.name})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	templates, err := filepath.Glob(filepath.Join(root, "cmd", "starter", "templates", "*.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range templates {
		text, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for i, re := range patterns {
			if re.Match(text) {
				uses = append(uses, platformUse{filepath.ToSlash(strings.TrimPrefix(path, root+string(filepath.Separator))), names[i]})
			}
		}
	}
	return uses
}
