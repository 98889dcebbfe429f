package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
)

// skipDirs are directories rename never looks into, at any depth, and
// rootOutputDirs those it skips at the root only: the build output and
// local data of the Taskfile, air and the development database.
var (
	skipDirs       = map[string]bool{"node_modules": true, "vendor": true}
	rootOutputDirs = map[string]bool{"tmp": true, "bin": true, "data": true}
)

// nameFiles are the files, relative to the root, where the project name
// (the last element of the module path) names the image, the compose
// project and the like. Every file below nameDirs is one too.
var (
	nameFiles = []string{"Taskfile.yml", "Dockerfile", "docker-compose.yml"}
	nameDirs  = []string{"deploy"}
)

// rename rewrites the module path of the repository at root to newPath.
func rename(root, newPath string, out io.Writer) error {
	if err := module.CheckPath(newPath); err != nil {
		return fmt.Errorf("rename: %q is not a valid module path: %w (a module path looks like github.com/you/service)", newPath, err)
	}
	oldPath, err := modulePath(root)
	if err != nil {
		return fmt.Errorf("rename: %w", err)
	}
	r := renamer{root: root, oldPath: oldPath, newPath: newPath,
		oldName: projectName(oldPath), newName: projectName(newPath)}
	changed, err := r.run()
	if err != nil {
		return fmt.Errorf("rename: %w", err)
	}
	if len(changed) == 0 {
		fmt.Fprintf(out, "the module is %s already: nothing to change\n", newPath)
		return nil
	}
	for _, f := range changed {
		fmt.Fprintln(out, "rewrote", f)
	}
	fmt.Fprintf(out, "renamed %s to %s in %d files; check with: go build ./... && go test ./...\n", oldPath, newPath, len(changed))
	return nil
}

// modulePath reads the module path of root's go.mod.
func modulePath(root string) (string, error) {
	name := filepath.Join(root, "go.mod")
	data, err := os.ReadFile(name)
	if err != nil {
		return "", fmt.Errorf("read go.mod (run this at the repository root, or give it with -C): %w", err)
	}
	p := modfile.ModulePath(data)
	if p == "" {
		return "", fmt.Errorf("%s has no module directive", name)
	}
	return p, nil
}

// projectName is the name of the project a module path gives: its last
// element without a major version suffix, lower-cased, with anything
// Docker Compose and Kubernetes do not accept in names made a dash.
func projectName(modPath string) string {
	prefix, _, ok := module.SplitPathVersion(modPath)
	if !ok {
		prefix = modPath
	}
	name := strings.ToLower(path.Base(prefix))
	name = regexp.MustCompile(`[^a-z0-9-]+`).ReplaceAllString(name, "-")
	return strings.Trim(name, "-")
}

// renamer rewrites one repository.
type renamer struct {
	root             string
	oldPath, newPath string
	oldName, newName string
}

// run rewrites every file that names the old module or project, and
// returns their paths relative to the root.
func (r renamer) run() ([]string, error) {
	var changed []string
	err := filepath.WalkDir(r.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			atRoot := filepath.Dir(p) == filepath.Clean(r.root)
			if p != r.root && (skipDirs[d.Name()] || strings.HasPrefix(d.Name(), ".") || atRoot && rootOutputDirs[d.Name()]) {
				return filepath.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(r.root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		var rewrite func([]byte) ([]byte, error)
		switch {
		case strings.HasSuffix(rel, ".go"):
			rewrite = func(src []byte) ([]byte, error) { return r.goFile(rel, src) }
		case d.Name() == "go.mod" || strings.HasSuffix(d.Name(), ".mod"):
			rewrite = func(src []byte) ([]byte, error) { return r.modFile(rel, src) }
		case rel == "README.md":
			rewrite = r.readme
		case r.namesProject(rel):
			rewrite = r.names
		default:
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dst, err := rewrite(src)
		if err != nil {
			return err
		}
		if bytes.Equal(src, dst) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if err := os.WriteFile(p, dst, info.Mode().Perm()); err != nil {
			return err
		}
		changed = append(changed, rel)
		return nil
	})
	return changed, err
}

// namesProject reports whether the file at rel names the project.
func (r renamer) namesProject(rel string) bool {
	for _, f := range nameFiles {
		if rel == f {
			return true
		}
	}
	for _, d := range nameDirs {
		if strings.HasPrefix(rel, d+"/") {
			return true
		}
	}
	return false
}

// moved returns p with the old module path replaced by the new one, when
// p is the old module or a package of it.
func (r renamer) moved(p string) (string, bool) {
	if p == r.oldPath {
		return r.newPath, true
	}
	if rest, ok := strings.CutPrefix(p, r.oldPath+"/"); ok {
		return r.newPath + "/" + rest, true
	}
	return p, false
}

// modFile rewrites the module, require and replace directives of a go.mod
// (or a -modfile such as go.tool.mod) that name the old module.
func (r renamer) modFile(rel string, src []byte) ([]byte, error) {
	f, err := modfile.Parse(rel, src, nil)
	if err != nil {
		return nil, err
	}
	if f.Module == nil {
		return src, nil
	}
	edited := false
	if p, ok := r.moved(f.Module.Mod.Path); ok {
		if err := f.AddModuleStmt(p); err != nil {
			return nil, fmt.Errorf("%s: %w", rel, err)
		}
		edited = true
	}
	for _, req := range f.Require {
		if p, ok := r.moved(req.Mod.Path); ok {
			retoken(req.Syntax, req.Mod.Path, p)
			req.Mod.Path = p
			edited = true
		}
	}
	for _, rep := range f.Replace {
		if p, ok := r.moved(rep.Old.Path); ok {
			retoken(rep.Syntax, rep.Old.Path, p)
			rep.Old.Path = p
			edited = true
		}
	}
	if !edited {
		return src, nil
	}
	f.Cleanup()
	return modfile.Format(f.Syntax), nil
}

// retoken replaces the token old of a go.mod line by new.
func retoken(line *modfile.Line, old, new string) {
	for i, tok := range line.Token {
		if tok == old || tok == modfile.AutoQuote(old) {
			line.Token[i] = modfile.AutoQuote(new)
			return
		}
	}
}

// goFile rewrites the imports of the old module's packages, and the module
// path where string literals and comments spell it (such as an error
// message naming a type by its package path).
func (r renamer) goFile(rel string, src []byte) ([]byte, error) {
	if !bytes.Contains(src, []byte(r.oldPath)) {
		return src, nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, rel, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	for _, imp := range f.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			return nil, fmt.Errorf("%s: import %s: %w", rel, imp.Path.Value, err)
		}
		if np, ok := r.moved(p); ok {
			imp.Path.Value = strconv.Quote(np)
		}
	}
	mention := regexp.MustCompile(regexp.QuoteMeta(r.oldPath) + `\b`)
	text := func(s string) string { return mention.ReplaceAllLiteralString(s, r.newPath) }
	imports := map[*ast.BasicLit]bool{}
	for _, imp := range f.Imports {
		imports[imp.Path] = true
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING && !imports[lit] {
			lit.Value = text(lit.Value)
		}
		return true
	})
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			c.Text = text(c.Text)
		}
	}
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, f); err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	return buf.Bytes(), nil
}

// readme rewrites the title and the module path of the README.
func (r renamer) readme(src []byte) ([]byte, error) {
	s := strings.ReplaceAll(string(src), r.oldPath, r.newPath)
	if title, rest, ok := strings.Cut(s, "\n"); ok && strings.TrimSpace(title) == "# "+r.oldName {
		s = "# " + r.newName + "\n" + rest
	}
	return []byte(s), nil
}

// names replaces the project name where it stands as a word of its own.
func (r renamer) names(src []byte) ([]byte, error) {
	if r.oldName == r.newName || r.oldName == "" {
		return src, nil
	}
	re := regexp.MustCompile(`(^|[^A-Za-z0-9_.-])` + regexp.QuoteMeta(r.oldName) + `($|[^A-Za-z0-9_-])`)
	// Each match consumes its delimiters, so adjacent names need a second
	// pass; two passes replace every one.
	s := string(src)
	for range 2 {
		s = re.ReplaceAllString(s, "${1}"+r.newName+"${2}")
	}
	return []byte(s), nil
}
