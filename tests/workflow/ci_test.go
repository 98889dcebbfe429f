package workflow

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/asapjs/fiber-template/internal/testkit"
)

var (
	// shortFlag matches go test's -short, as a flag or in GOFLAGS.
	shortFlag = regexp.MustCompile(`(^|[\s'"=])--?(test\.)?short\b`)
	// goTestAll matches a go test of every package of the root module.
	goTestAll = regexp.MustCompile(`^go test (-\S+ )*\./\.\.\.$`)
)

// TestCIRunsTheMultiProcessTests: the tests that build the binary and run
// processes of it skip with -short, so CI must never pass it. No line of
// .ci/run sets -short (as a flag or through GOFLAGS), and one of its
// go test commands runs every package of the module that holds each test
// that skips with it.
func TestCIRunsTheMultiProcessTests(t *testing.T) {
	t.Parallel()
	var all bool
	for i, line := range strings.Split(readFile(t, ".ci/run"), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "#") {
			continue
		}
		if shortFlag.MatchString(line) {
			t.Errorf(".ci/run:%d passes -short, which skips the multi-process tests: %s", i+1, line)
		}
		all = all || goTestAll.MatchString(line)
	}
	if !all {
		t.Error(".ci/run has no go test ./... without -run: the tests that skip with -short would not run in CI")
	}
	root := testkit.RepoRoot(t)
	for _, file := range shortSkippers(t, root) {
		if mod := moduleOf(t, root, file); mod != root {
			t.Errorf("%s skips with -short and lives in the module %s, which go test ./... does not enter", file, mod)
		}
	}
}

// shortSkippers are the test files below root that ask testing.Short(),
// nested modules included.
func shortSkippers(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.Contains(string(b), "testing.Short()") {
			out = append(out, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatal("no test skips with -short: this check checks nothing")
	}
	return out
}

// moduleOf is the directory of the go.mod nearest above file.
func moduleOf(t *testing.T, root, file string) string {
	t.Helper()
	for dir := filepath.Dir(file); ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		if dir == root || dir == filepath.Dir(dir) {
			t.Fatalf("%s is in no module below %s", file, root)
		}
	}
}
