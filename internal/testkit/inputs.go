package testkit

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// skippedDirs are directories Inputs does not enter: installed packages
// and version control, which a test's own commands rewrite or never read
// as input.
var skippedDirs = map[string]bool{"node_modules": true, ".git": true}

// Inputs opens, in the test process, every file under each path (a file or
// a directory, slash-separated and relative to the repository root, or
// absolute), so
// that go test's cache knows them. The cache replays a passing result
// until the test binary, its flags, the environment it read or a file it
// opened changes; a file that only a child process reads (a generator, a
// tool, go build) is none of these, and a test comparing that child's
// output with a committed file would pass from the cache after either
// changed. A test calls Inputs with everything its children read and
// everything it compares. node_modules and .git are not entered.
func Inputs(t testing.TB, paths ...string) {
	t.Helper()
	root := RepoRoot(t)
	for _, p := range paths {
		path := filepath.FromSlash(p)
		if !filepath.IsAbs(path) {
			path = filepath.Join(root, path)
		}
		if err := openAll(path); err != nil {
			t.Fatalf("testkit: open the inputs under %s: %v", p, err)
		}
	}
}

// openAll opens every file and directory under path; opening a directory
// lets the cache see files added to it or removed.
func openAll(path string) error {
	return filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != path && skippedDirs[d.Name()] {
			return filepath.SkipDir
		}
		if !d.IsDir() && !d.Type().IsRegular() {
			return nil
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		return f.Close()
	})
}

// recordSources opens the directories of the packages pkg is built from
// that lie inside the repository, and its go.mod and go.sum, so that a
// test running a binary it built itself is run again, not replayed from
// go test's cache, after the binary's source changed (see Inputs).
func recordSources(t testing.TB, root string, env []string, pkg string) {
	t.Helper()
	dirs := Go(t, root, env, "list", "-deps", "-f", "{{if not .Standard}}{{.Dir}}{{end}}", pkg)
	paths := []string{"go.mod", "go.sum"}
	for dir := range strings.Lines(dirs) {
		rel, err := filepath.Rel(root, strings.TrimSpace(dir))
		if err != nil || rel == "." || strings.HasPrefix(rel, "..") || strings.TrimSpace(dir) == "" {
			continue
		}
		paths = append(paths, filepath.ToSlash(rel))
	}
	Inputs(t, paths...)
}
