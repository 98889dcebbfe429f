package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/semver"

	"github.com/asapjs/fiber-template/internal/changelog"
)

// A service comes with the platform one of two ways. In vendored mode, the
// default, rename moves the platform with the rest: the service owns a copy
// of it as MODULE/platform, in platform/, which its go.mod replaces. In
// library mode (rename --library) the service requires the platform as
// the template publishes it, platformModule at a version: platform/ and
// the package that runs its tests from the root are removed, the imports
// of the platform keep the library's path, and every go.mod drops its
// replace of the platform and requires the version.

// platformModule is the module path of the platform as a library.
const platformModule = upstreamModule + "/platform"

// libraryDirs are the directories, by slash path from the root, that only
// a service with its own copy of the platform has: the copy, the package
// that runs its tests from the root, and the gate of its Go API against
// its last release.
var libraryDirs = []string{"platform", "tests/platform", "tests/apigate"}

// libraryEdit drops or rewrites what a file does with platform/, which a
// service in library mode has not.
type libraryEdit struct {
	// file is the file's slash path from the root.
	file string
	// what names the edit in messages.
	what string
	// pattern matches the text to rewrite; it must match at least once.
	pattern *regexp.Regexp
	// with is the text in its place.
	with string
}

// libraryEdits are the tasks, CI steps, build steps and tests that run or
// read platform/.
var libraryEdits = []libraryEdit{
	{"Taskfile.yml", "the fuzz task (its targets are the platform's)",
		regexp.MustCompile(`(?m)^  fuzz:\n(?:(?:    .*)?\n)*`), ""},
	{"Taskfile.yml", "the platform's packages in mutate's PKGS",
		regexp.MustCompile(`\./platform/[a-z/]+ `), ""},
	{"Taskfile.yml", "the api:gate task (it gates the platform's Go API)",
		regexp.MustCompile(`(?m)^  api:gate:\n(?:(?:    .*)?\n)*`), ""},
	{"Taskfile.yml", "test:race's go -C platform test -race line",
		regexp.MustCompile(`(?m)^ *- go -C platform test -race \./\.\.\.\n`), ""},
	{".ci/run", "the go -C platform test -race line",
		regexp.MustCompile(`(?m)^go -C platform test -race \./\.\.\.\n`), ""},
	{".ci/run", "the platform's Go API gate (tests/apigate)",
		regexp.MustCompile(`(?m)^# The platform's Go API against its last release.*\n(?:.*\n)*?go test .*\./tests/apigate\n`), ""},
	{".ci/run", "the fuzz targets' loop (they are the platform's)",
		regexp.MustCompile(`(?m)^# The fuzz targets.*\n(?:.*\n)*?done\n`), ""},
	{"Dockerfile", "the COPY of platform/go.mod and platform/go.sum",
		regexp.MustCompile(`(?m)^COPY platform/go\.mod platform/go\.sum \./platform/\n`), ""},
	{"Dockerfile", "the comment on the platform's replace",
		regexp.MustCompile(` The\n# platform is a module of its own that go\.mod replaces with \./platform\.`), ""},
	{"tests/integration/problems_walk_test.go", "the walk of platform/",
		regexp.MustCompile(`\[\]string\{"platform", "app", "cmd"\}`), `[]string{"app", "cmd"}`},
}

// docsPlatformLink begins a Markdown link of a page of docs/ to a file of
// platform/, which library mode points at the template's repository.
var docsPlatformLink = regexp.MustCompile(`\]\(\.\./platform/`)

// libraryVersion is the version of the platform a rename in library mode
// requires: the one given (--platform-version), else the newest release
// in platform/CHANGELOG.md (changelog.FirstRelease while it has none), else, in a
// service without platform/, the one its go.mod requires already.
func libraryVersion(root, given string) (string, error) {
	if given != "" {
		v := given
		if !strings.HasPrefix(v, "v") {
			v = "v" + v
		}
		if !semver.IsValid(v) || semver.Canonical(v) != v {
			return "", fmt.Errorf("--platform-version %q: want a version such as v1.0.0", given)
		}
		return v, nil
	}
	v, err := changelog.NewestOrFirstOf(filepath.Join(root, "platform", "CHANGELOG.md"))
	if err == nil {
		return v, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	if v, err := requiredPlatform(root); err == nil && v != "" {
		return v, nil
	}
	return "", errors.New("found no platform/CHANGELOG.md to read the platform's newest release from, " +
		"nor a version of " + platformModule + " in go.mod: give one with --platform-version vX.Y.Z")
}

// requiredPlatform returns the version of platformModule the go.mod at
// root requires, "" for none.
func requiredPlatform(root string) (string, error) {
	name := filepath.Join(root, "go.mod")
	data, err := os.ReadFile(name)
	if err != nil {
		return "", err
	}
	f, err := modfile.ParseLax(name, data, nil)
	if err != nil {
		return "", err
	}
	for _, req := range f.Require {
		if req.Mod.Path == platformModule {
			return req.Mod.Version, nil
		}
	}
	return "", nil
}

// platformImport is the import path of the platform in the service at
// root, whose module is mod: platformModule when go.mod requires it (the
// template, whose copy is that module, and a service in library mode,
// even one that replaces it with a folder to try a change), else the
// service's own copy, mod/platform (vendored mode).
func platformImport(root, mod string) (string, error) {
	v, err := requiredPlatform(root)
	if err != nil {
		return "", fmt.Errorf("read go.mod: %w", err)
	}
	if v != "" {
		return platformModule, nil
	}
	return mod + "/platform", nil
}

// isPlatform reports whether p is the platform's module, as a library or
// as the copy of the repository being renamed.
func (r renamer) isPlatform(p string) bool {
	return p == platformModule || p == r.oldPath+"/platform"
}

// platformPath returns p with the platform's path made the library's, when
// p is the platform or a package of it.
func (r renamer) platformPath(p string) (string, bool) {
	for _, old := range []string{platformModule, r.oldPath + "/platform"} {
		if p == old {
			return platformModule, true
		}
		if rest, ok := strings.CutPrefix(p, old+"/"); ok {
			return platformModule + "/" + rest, true
		}
	}
	return p, false
}

// requireLibrary makes f, a parsed go.mod, require platformModule at the
// version instead of the copy and drops its replace, when f requires the
// platform; it reports whether f changed.
func (r renamer) requireLibrary(f *modfile.File) (bool, error) {
	edited, required := false, false
	for _, rep := range slices.Clone(f.Replace) {
		if r.isPlatform(rep.Old.Path) {
			if err := f.DropReplace(rep.Old.Path, rep.Old.Version); err != nil {
				return false, err
			}
			edited = true
		}
	}
	for _, req := range slices.Clone(f.Require) {
		if !r.isPlatform(req.Mod.Path) {
			continue
		}
		required = true
		if req.Mod.Path != platformModule {
			if err := f.DropRequire(req.Mod.Path); err != nil {
				return false, err
			}
			edited = true
		} else if req.Mod.Version != r.version {
			edited = true
		}
	}
	if required {
		if err := f.AddRequire(platformModule, r.version); err != nil {
			return false, err
		}
	}
	return edited, nil
}

// libraryWords rewrites text with rewrite, but for the platform's paths,
// which become the library's and are left alone otherwise: the
// template's name in github.com/asapjs/fiber-template/platform is the
// library's, not the service's.
func (r renamer) libraryWords(text string, rewrite func(string) string) string {
	var b strings.Builder
	prev := 0
	for _, loc := range r.platformRef.FindAllStringIndex(text, -1) {
		b.WriteString(rewrite(text[prev:loc[0]]))
		b.WriteString(platformModule)
		prev = loc[1]
	}
	b.WriteString(rewrite(text[prev:]))
	return b.String()
}

// platformRefOf matches the platform's path, as the library's or the
// copy's of the module oldPath, where it stands as a path of its own.
func platformRefOf(oldPath string) *regexp.Regexp {
	return regexp.MustCompile(`(?:` + regexp.QuoteMeta(platformModule) + `|` + regexp.QuoteMeta(oldPath+"/platform") + `)\b`)
}

// libraryPlan is what a rename in library mode does besides renaming.
type libraryPlan struct {
	// change holds the renamed files with libraryEdits made on top, and
	// the files of libraryDirs to remove.
	change change
	// modules are the directories, by slash path from the root, of the
	// modules whose go.mod requires the platform: go mod tidy runs there.
	modules []string
}

// libraryChange returns the change of a rename in library mode, from the
// renamed files: libraryEdits apply when the repository has platform/ (a
// service without it is in library mode already).
func (r renamer) libraryChange(edits []edit) (libraryPlan, error) {
	data := map[string][]byte{}
	for _, e := range edits {
		data[e.rel] = e.data
	}
	if info, err := os.Stat(filepath.Join(r.root, "platform")); err == nil && info.IsDir() {
		for _, le := range libraryEdits {
			src, ok := data[le.file]
			if !ok {
				b, err := os.ReadFile(filepath.Join(r.root, filepath.FromSlash(le.file)))
				if errors.Is(err, fs.ErrNotExist) {
					continue // a service without it has nothing to edit
				}
				if err != nil {
					return libraryPlan{}, fmt.Errorf("%s: %w", le.file, err)
				}
				src = b
			}
			if !le.pattern.Match(src) {
				return libraryPlan{}, fmt.Errorf("%s: found no %s: edit it by hand, or rename without --library", le.file, le.what)
			}
			data[le.file] = le.pattern.ReplaceAll(src, []byte(le.with))
		}
		if err := r.relinkDocs(data); err != nil {
			return libraryPlan{}, err
		}
	}
	var p libraryPlan
	for _, rel := range slices.Sorted(mapKeys(data)) {
		p.change.writes = append(p.change.writes, file{rel, data[rel]})
		if filepath.Base(rel) != "go.mod" {
			continue
		}
		f, err := modfile.ParseLax(rel, data[rel], nil)
		if err != nil {
			return libraryPlan{}, err
		}
		if slices.ContainsFunc(f.Require, func(req *modfile.Require) bool { return req.Mod.Path == platformModule }) {
			p.modules = append(p.modules, filepath.ToSlash(filepath.Dir(rel)))
		}
	}
	for _, dir := range libraryDirs {
		files, err := filesBelow(r.root, dir)
		if err != nil {
			return libraryPlan{}, err
		}
		p.change.removes = append(p.change.removes, files...)
	}
	return p, nil
}

// relinkDocs points the links of the pages of docs/ to files of platform/
// at the template's repository, in data (the files to write, by slash
// path) or read from the root.
func (r renamer) relinkDocs(data map[string][]byte) error {
	pages, err := filepath.Glob(filepath.Join(r.root, "docs", "*.md"))
	if err != nil {
		return err
	}
	to := []byte("](" + upstreamURL + "/blob/main/platform/")
	for _, page := range pages {
		rel := "docs/" + filepath.Base(page)
		src, ok := data[rel]
		if !ok {
			if src, err = os.ReadFile(page); err != nil {
				return err
			}
		}
		if docsPlatformLink.Match(src) {
			data[rel] = docsPlatformLink.ReplaceAll(src, to)
		}
	}
	return nil
}

// prose joins words with commas, the last two with "and".
func prose(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// mapKeys yields the keys of m.
func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// starterTemp matches the name of a file a change keeps aside or stages.
var starterTemp = regexp.MustCompile(`^\..*\.starter-(?:old|new)-[0-9]+$`)

// filesBelow returns rel, a slash path from root, when it is a file, and
// every file below it when it is a directory; nothing when it is missing.
// The files an applied change keeps aside there are its own, not these.
func filesBelow(root, rel string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(filepath.Join(root, filepath.FromSlash(rel)), func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil || d.IsDir() || starterTemp.MatchString(d.Name()) {
			return err
		}
		r, err := filepath.Rel(root, p)
		files = append(files, filepath.ToSlash(r))
		return err
	})
	return files, err
}

// pruneDirs deletes the empty directories below each of dirs (slash paths
// from root), and dirs themselves when empty then: what a change that
// removed their files leaves.
func pruneDirs(root string, dirs []string) {
	for _, rel := range dirs {
		var found []string
		_ = filepath.WalkDir(filepath.Join(root, filepath.FromSlash(rel)), func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				found = append(found, p)
			}
			return nil
		})
		for _, d := range slices.Backward(found) {
			_ = os.Remove(d)
		}
	}
}

// renameLibrary applies a rename in library mode, with the accounts
// example removed too when opts.WithoutAccounts, then settles the modules
// and the contract (go mod tidy where the platform is required, the
// contract and the clients written again). It is all or nothing: when any
// step fails, every file is put back as it was.
func (r renamer) renameLibrary(p libraryPlan, opts renameOptions, out io.Writer) (removed int, err error) {
	interrupt := make(chan os.Signal, 1)
	signal.Notify(interrupt, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(interrupt)
	a, err := p.change.apply(r.root)
	if err != nil {
		return 0, err
	}
	steps := []*applied{a}
	undo := func(err error) error {
		for _, s := range slices.Backward(steps) {
			err = errors.Join(err, s.undo())
		}
		return err
	}
	pruned := slices.Clone(libraryDirs)
	removed = len(p.change.removes)
	if opts.WithoutAccounts {
		c, dirs, err := accountsChange(r.root, r.newPath)
		if err != nil {
			return 0, undo(fmt.Errorf("--auth=issuer: %w", err))
		}
		b, err := c.apply(r.root)
		if err != nil {
			return 0, undo(fmt.Errorf("--auth=issuer: %w", err))
		}
		steps = append(steps, b)
		pruned = append(pruned, dirs...)
		fmt.Fprintf(out, "removed the accounts example (%d files) and rewrote %d files: the service trusts the issuer at AUTH_ISSUER\n",
			len(c.removes), len(c.writes))
	}
	guarded := slices.Clone(contractOutputs)
	for _, m := range p.modules {
		guarded = append(guarded, filepath.ToSlash(filepath.Join(m, "go.sum")))
	}
	if err := a.guard(guarded...); err != nil {
		return 0, undo(err)
	}
	settle := opts.settle
	if settle == nil {
		settle = func(root string, modules []string, out io.Writer) error {
			return settleLibrary(root, modules, r.version, opts.Verbose, out)
		}
	}
	err = settle(r.root, p.modules, out)
	select {
	case s := <-interrupt:
		err = errors.Join(fmt.Errorf("interrupted (%s)", s), err)
	default:
	}
	if err != nil {
		return 0, undo(err)
	}
	// The change is made: old files that cannot be deleted are only left
	// behind, under names Go ignores.
	for _, s := range steps {
		if err := s.keep(); err != nil {
			fmt.Fprintf(out, "note: %v\n", err)
		}
	}
	pruneDirs(r.root, pruned)
	return removed, nil
}

// accountsChange is accountsPlan as a change: the directories it removes
// are their files, which it returns too, to prune once they are gone.
func accountsChange(root, mod string) (change, []string, error) {
	writes, removals, err := accountsPlan(root, mod)
	if err != nil {
		return change{}, nil, err
	}
	var c change
	for _, name := range slices.Sorted(mapKeys(writes)) {
		c.writes = append(c.writes, file{name, writes[name]})
	}
	for _, rel := range removals {
		files, err := filesBelow(root, rel)
		if err != nil {
			return change{}, nil, err
		}
		c.removes = append(c.removes, files...)
	}
	return c, removals, nil
}

// settleLibrary checks that the platform's version can be fetched, runs
// go mod tidy in each of modules (with the caller's GOPROXY, GOFLAGS and
// GOSUMDB), then writes the contract and the clients again.
func settleLibrary(root string, modules []string, version string, verbose bool, out io.Writer) error {
	mod := platformModule + "@" + version
	if b, err := goIn(root, "mod", "download", "-json", mod); err != nil {
		proxy, _ := goIn(root, "env", "GOPROXY")
		return fmt.Errorf("could not fetch the platform %s from GOPROXY=%s (a version the proxy has not got? give another with --platform-version): %w\n%s",
			mod, strings.TrimSpace(string(proxy)), err, bytes.TrimSpace(b))
	}
	for _, m := range modules {
		// A nested module (bench, tests/kubernetes) may import a package
		// the service no longer has (--auth issuer removes the accounts
		// example some benchmarks use): -e tidies the rest, and says what
		// it could not resolve. The service's own module must tidy whole.
		args := []string{"mod", "tidy"}
		if m != "." {
			args = append(args, "-e")
		}
		b, err := goIn(filepath.Join(root, filepath.FromSlash(m)), args...)
		if err != nil {
			return fmt.Errorf("go mod tidy in %s: %w\n%s", m, err, bytes.TrimSpace(b))
		}
		if problems := tidyProblems(b); problems != "" {
			fmt.Fprintf(out, "note: go mod tidy -e in %s could not resolve everything; fix it there:\n%s\n", m, problems)
		}
		if verbose {
			fmt.Fprintln(out, "tidied", filepath.ToSlash(filepath.Join(m, "go.mod")))
		}
	}
	return refreshContract(root, out, verbose)
}

// tidyProblems returns the lines of go mod tidy's output that are not
// progress (downloading, finding): what it could not resolve.
func tidyProblems(output []byte) string {
	var lines []string
	for line := range strings.Lines(string(output)) {
		if strings.HasPrefix(line, "go: downloading ") || strings.HasPrefix(line, "go: finding ") || strings.TrimSpace(line) == "" {
			continue
		}
		lines = append(lines, strings.TrimRight(line, "\n"))
	}
	return strings.Join(lines, "\n")
}

// goIn runs the go command in dir with the caller's environment and
// returns what it printed.
func goIn(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	return cmd.CombinedOutput()
}

// renameToLibrary ends a rename in library mode, from the renamed files:
// it removes the platform's copy, makes the edits of libraryEdits, and
// settles the modules and the contract, all or nothing.
func (r renamer) renameToLibrary(edits []edit, missing []site, opts renameOptions, out io.Writer) error {
	p, err := r.libraryChange(edits)
	if err != nil {
		return fmt.Errorf("rename --library: %w (nothing was changed)", err)
	}
	if len(p.change.writes) == 0 && len(p.change.removes) == 0 && !opts.WithoutAccounts {
		fmt.Fprintf(out, "the module is %s already, and requires the platform %s %s: nothing to change\n", r.newPath, platformModule, r.version)
		return nil
	}
	var log bytes.Buffer
	removed, err := r.renameLibrary(p, opts, &log)
	if err != nil {
		return fmt.Errorf("rename --library: %w\n(nothing was changed: fix it and run the command again)", err)
	}
	for _, s := range missing {
		fmt.Fprintf(out, "note: found no %s in %s; it is unchanged\n", s.what, s.file)
	}
	if opts.Verbose {
		for _, f := range p.change.writes {
			fmt.Fprintln(out, "rewrote", f.path)
		}
	}
	_, _ = log.WriteTo(out)
	fmt.Fprintf(out, "renamed %s to %s in %d files, in library mode: removed %s (%d files); "+
		"go.mod requires %s %s (upgrade with go get %s@vX.Y.Z); check with: go build ./... && go test ./...\n",
		r.oldPath, r.newPath, len(p.change.writes), prose(libraryDirs), removed, platformModule, r.version, platformModule)
	return nil
}
