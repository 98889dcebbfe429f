package testkit

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// CopyWorkTree copies the repository's files as git sees them (tracked,
// or new and not ignored) into a temporary directory of t and returns it:
// a clone of what is about to be committed, without build output,
// node_modules or .env, and without .git.
func CopyWorkTree(t testing.TB) string {
	t.Helper()
	git := LookPath(t, "install git", "git")
	root := RepoRoot(t)
	ls := exec.CommandContext(Context(t), git, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	ls.Dir = root
	list, err := ls.Output()
	if err != nil {
		Missing(t, "a git work tree to copy: "+err.Error())
	}
	dir := filepath.Join(t.TempDir(), "clone")
	for _, name := range strings.Split(strings.TrimRight(string(list), "\x00"), "\x00") {
		src := filepath.Join(root, filepath.FromSlash(name))
		info, err := os.Lstat(src)
		if err != nil || !info.Mode().IsRegular() {
			continue // deleted in the work tree, or not a file
		}
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, info.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
