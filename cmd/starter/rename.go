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
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

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

// skipped reports whether the walk of root skips the directory d at p.
func skipped(root, p string, d fs.DirEntry) bool {
	if p == root {
		return false
	}
	atRoot := filepath.Dir(p) == filepath.Clean(root)
	return skipDirs[d.Name()] || strings.HasPrefix(d.Name(), ".") || atRoot && rootOutputDirs[d.Name()]
}

// nameFiles are the files, relative to the root, where the project name
// (the last element of the module path) names the image, the compose
// project, the TypeScript client's package and the like. Every file below
// nameDirs is one too.
var (
	nameFiles = []string{"Taskfile.yml", "Dockerfile", "docker-compose.yml", "clients/ts/package.json", "clients/ts/package-lock.json", "clients/ts/README.md"}
	nameDirs  = []string{"deploy"}
)

// starterDir is this command's own directory. rename rewrites the
// imports of its Go files and nothing else there: its usage text, its
// tests' fixtures and upstreamModule keep naming the template.
const starterDir = "cmd/starter/"

// rename rewrites the module path of the repository at root to newPath,
// and names the service after it. Every file is read and rewritten in
// memory before the first one is written.
func rename(root, newPath string, opts renameOptions, out io.Writer) error {
	if err := module.CheckPath(newPath); err != nil {
		return fmt.Errorf("rename: %q is not a valid module path: %w (a module path looks like github.com/you/service)", newPath, err)
	}
	if err := opts.check(); err != nil {
		return fmt.Errorf("rename: %w", err)
	}
	newName := projectName(newPath)
	if newName == "" || len(newName) > 63 {
		return fmt.Errorf("rename: %q: its last element makes no project name for Compose and Kubernetes "+
			"(lower-case letters, digits and dashes, at most 63)", newPath)
	}
	oldPath, err := modulePath(root)
	if err != nil {
		return fmt.Errorf("rename: %w", err)
	}
	oldName := projectName(oldPath)
	r := renamer{root: root, oldPath: oldPath, newPath: newPath, oldName: oldName, newName: newName,
		everywhere: oldName != newName && oldName == projectName(upstreamModule),
		sites:      identitySites(opts, newName, oldPath != newPath),
		mention:    regexp.MustCompile(regexp.QuoteMeta(oldPath) + `\b`),
		word:       regexp.MustCompile(`(^|[^A-Za-z0-9_.-])` + regexp.QuoteMeta(oldName) + `($|[^A-Za-z0-9_])`)}
	if opts.Library {
		if r.version, err = libraryVersion(root, opts.PlatformVersion); err != nil {
			return fmt.Errorf("rename --library: %w", err)
		}
		r.library, r.platformRef = true, platformRefOf(oldPath)
	}
	edits, missing, err := r.plan()
	if err != nil {
		return fmt.Errorf("rename: %w", err)
	}
	for _, s := range missing {
		if s.explicit {
			return fmt.Errorf("rename: found no %s in %s: set it by hand", s.what, s.file)
		}
	}
	if r.library {
		return r.renameToLibrary(edits, missing, opts, out)
	}
	for _, e := range edits {
		if err := os.WriteFile(e.path, e.data, e.mode); err != nil {
			return fmt.Errorf("rename: %w", err)
		}
	}
	for _, s := range missing {
		fmt.Fprintf(out, "note: found no %s in %s; it is unchanged\n", s.what, s.file)
	}
	if len(edits) == 0 {
		fmt.Fprintf(out, "the module is %s already: nothing to change\n", newPath)
		return nil
	}
	if opts.Verbose {
		for _, e := range edits {
			fmt.Fprintln(out, "rewrote", e.rel)
		}
	}
	if oldPath == newPath {
		fmt.Fprintf(out, "renamed nothing (the module is %s already); rewrote %d files\n", newPath, len(edits))
		return nil
	}
	fmt.Fprintf(out, "renamed %s to %s in %d files; check with: go build ./... && go test ./...\n", oldPath, newPath, len(edits))
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
	// everywhere is set when the old name is the template's: then it is
	// replaced wherever it stands as a word, in every text file but the
	// starter's own and the lines that link to the template's repository.
	// A later rename replaces the project name only where a file names the
	// project (nameFiles, nameDirs, the README's title): a name such as
	// orders may be a table's too.
	everywhere bool
	// sites are the literals set to values of their own.
	sites []site
	// mention matches the old module path, word the old name as a word of
	// its own or the first of a dashed one (fiber-template-api).
	mention, word *regexp.Regexp
	// library is set in library mode (rename --library): the platform's
	// paths become platformModule's, which go.mod requires at version;
	// platformRef matches those paths in text.
	library     bool
	version     string
	platformRef *regexp.Regexp
}

// edit is a file's new content.
type edit struct {
	rel, path string
	data      []byte
	mode      fs.FileMode
}

// plan returns the rewritten content of every file that changes, and the
// sites it did not find.
func (r renamer) plan() ([]edit, []site, error) {
	var edits []edit
	found := map[int]bool{}
	err := filepath.WalkDir(r.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if skipped(r.root, p, d) || r.library && r.removes(p) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(r.root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var dst []byte
		switch {
		case strings.HasSuffix(rel, ".go"):
			dst, err = r.goFile(rel, src, found)
		case strings.HasSuffix(d.Name(), ".mod"):
			dst, err = r.modFile(rel, src)
		case strings.HasSuffix(d.Name(), ".sum"), bytes.IndexByte(src, 0) >= 0 || !utf8.Valid(src):
			return nil
		case rel == "README.md" && r.everywhere:
			// The template's README describes the template: the new
			// service gets one of its own.
			dst = r.readme(src)
		default:
			dst = r.text(rel, src)
		}
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
		edits = append(edits, edit{rel, p, dst, info.Mode().Perm()})
		return nil
	})
	var missing []site
	for i, s := range r.sites {
		if !found[i] {
			missing = append(missing, s)
		}
	}
	return edits, missing, err
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

// removes reports whether the directory at p is one library mode
// removes.
func (r renamer) removes(p string) bool {
	rel, err := filepath.Rel(r.root, p)
	return err == nil && slices.Contains(libraryDirs, filepath.ToSlash(rel))
}

// moved returns p with the old module path replaced by the new one, when
// p is the old module or a package of it. In library mode the platform's
// paths become the library's instead.
func (r renamer) moved(p string) (string, bool) {
	if r.library {
		if np, ok := r.platformPath(p); ok {
			return np, np != p
		}
	}
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
	if r.library {
		if edited, err = r.requireLibrary(f); err != nil {
			return nil, fmt.Errorf("%s: %w", rel, err)
		}
	}
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

// replacement is text to put in place of a range of a file.
type replacement struct {
	start, end int
	text       string
}

// goFile rewrites the imports of the old module's packages, sets the
// sites of the file (marking them in found, by index), and rewrites the
// module path, and the template's name when everywhere is set, where
// string literals and comments spell them (such as an error message naming
// a type by its package path). In the starter's own files only imports
// change.
func (r renamer) goFile(rel string, src []byte, found map[int]bool) ([]byte, error) {
	own := strings.HasPrefix(rel, starterDir)
	var sites []int
	for i, s := range r.sites {
		if s.file == rel {
			sites = append(sites, i)
		}
	}
	if !bytes.Contains(src, []byte(r.oldPath)) && len(sites) == 0 && (!r.everywhere || own || !bytes.Contains(src, []byte(r.oldName))) {
		return src, nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, rel, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	offset := func(p token.Pos) int { return fset.Position(p).Offset }
	var reps []replacement
	done := map[*ast.BasicLit]bool{}
	for _, imp := range f.Imports {
		done[imp.Path] = true
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			return nil, fmt.Errorf("%s: import %s: %w", rel, imp.Path.Value, err)
		}
		if np, ok := r.moved(p); ok {
			reps = append(reps, replacement{offset(imp.Path.Pos()), offset(imp.Path.End()), strconv.Quote(np)})
		}
	}
	for _, i := range sites {
		lit := r.sites[i].find(f)
		if lit == nil || done[lit] {
			continue
		}
		done[lit] = true
		found[i] = true
		if v, err := strconv.Unquote(lit.Value); err != nil || v != r.sites[i].value {
			reps = append(reps, replacement{offset(lit.Pos()), offset(lit.End()), strconv.Quote(r.sites[i].value)})
		}
	}
	if !own {
		rewrite := func(n ast.Node, text string) {
			if t := r.words(text); t != text {
				reps = append(reps, replacement{offset(n.Pos()), offset(n.End()), t})
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING && !done[lit] {
				rewrite(lit, lit.Value)
			}
			return true
		})
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				rewrite(c, c.Text)
			}
		}
	}
	if len(reps) == 0 {
		return src, nil
	}
	slices.SortFunc(reps, func(a, b replacement) int { return b.start - a.start })
	out := slices.Clone(src)
	for _, rep := range reps {
		out = slices.Concat(out[:rep.start], []byte(rep.text), out[rep.end:])
	}
	// Imports sort again: a new path may sort elsewhere in its group.
	formatted, err := format.Source(out)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	return formatted, nil
}

// words rewrites the mentions of the old module path in text, and those of
// the old name when everywhere is set. In library mode the platform's
// paths become the library's, and nothing else changes in them.
func (r renamer) words(text string) string {
	if r.library {
		return r.libraryWords(text, r.rewords)
	}
	return r.rewords(text)
}

// rewords is words without regard to library mode.
func (r renamer) rewords(text string) string {
	text = r.mention.ReplaceAllLiteralString(text, r.newPath)
	if r.everywhere {
		text = r.names(text)
	}
	return text
}

// text rewrites a file that is neither Go nor a go.mod: the module path
// and the template's name when everywhere is set, else the project name
// in the files that name the project and the README's title. Lines that
// link to the template's repository, and the starter's own files, stay as
// they are.
func (r renamer) text(rel string, src []byte) []byte {
	if strings.HasPrefix(rel, starterDir) {
		return src
	}
	names := r.namesProject(rel)
	var b strings.Builder
	first := true
	for line := range strings.Lines(string(src)) {
		switch {
		case strings.Contains(line, upstreamURL):
		case r.everywhere && strings.HasPrefix(rel, "docs/") && strings.Contains(line, readmeSectionLink):
			// The new README has none of the template's sections: a
			// link to one goes to the template's README.
			line = strings.ReplaceAll(r.words(line), readmeSectionLink, "]("+upstreamURL+"#")
		case first && rel == "README.md" && !r.everywhere && strings.TrimSpace(line) == "# "+r.oldName && r.oldName != "":
			line = strings.Replace(line, r.oldName, r.newName, 1)
		default:
			line = r.words(line)
			if names && !r.everywhere {
				line = r.names(line)
			}
		}
		first = false
		b.WriteString(line)
	}
	return []byte(b.String())
}

// names replaces the old project name where it stands as a word of its
// own, or begins a dashed one (fiber-template-api).
func (r renamer) names(s string) string {
	if r.oldName == r.newName || r.oldName == "" {
		return s
	}
	// Each match consumes its delimiters, so adjacent names need a second
	// pass; two passes replace every one.
	for range 2 {
		s = r.word.ReplaceAllString(s, "${1}"+r.newName+"${2}")
	}
	return s
}
