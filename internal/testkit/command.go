package testkit

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// cleanupMargin is the time left before a test's deadline for its cleanups
// and for reporting, when a command is bound by that deadline.
const cleanupMargin = 30 * time.Second

// Context returns a context that ends a little before t's deadline (go
// test -timeout), and with t. Work whose length depends on the machine, a
// build or a tool's first compile, runs under it rather than under a fixed
// timeout: a slow first run is slow, not failed.
func Context(t testing.TB) context.Context {
	t.Helper()
	ctx := t.Context()
	dl, ok := deadline(t)
	if !ok {
		return ctx
	}
	ctx, cancel := context.WithDeadline(ctx, dl.Add(-cleanupMargin))
	t.Cleanup(cancel)
	return ctx
}

// deadline is t's deadline, when it has one.
func deadline(t testing.TB) (time.Time, bool) {
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		return d.Deadline()
	}
	return time.Time{}, false
}

// RepoRoot returns the directory of the repository's go.mod, found by
// walking up from the test's working directory (its package directory).
func RepoRoot(t testing.TB) string {
	t.Helper()
	dir, err := repoRoot()
	if err != nil {
		t.Fatalf("testkit: find the repository root: %v", err)
	}
	return dir
}

var repoRoot = sync.OnceValues(func() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.tool.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
})

// Go runs the go command with args in dir under Context(t) and returns
// what it wrote to standard output (progress such as "go: downloading" goes
// to standard error); a failure fails t with both.
func Go(t testing.TB, dir string, env []string, args ...string) string {
	t.Helper()
	goCmd := LookPath(t, "install Go", "go")
	cmd := exec.CommandContext(Context(t), goCmd, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %s: %v\n%s%s", strings.Join(args, " "), err, out, stderr.Bytes())
	}
	return string(out)
}

// Tool returns the path of a tool pinned in go.tool.mod, built on first
// use. The build is cached by go itself, so every test binary after the
// first (and every `task tools` before) finds it ready.
func Tool(t testing.TB, name string) string {
	t.Helper()
	out := Go(t, RepoRoot(t), nil, "tool", "-n", "-modfile=go.tool.mod", name)
	return strings.TrimSpace(out)
}

// Build builds the main package pkg (a package path or ./dir relative to the
// repository root) with extra go build flags into a temporary directory of
// t, and returns the binary's path. Repeated builds of unchanged code come
// from go's build cache. The sources the binary is built from are opened
// in the test process (see Inputs), so go test runs the test again when
// they change.
func Build(t testing.TB, pkg string, env []string, flags ...string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), filepath.Base(pkg))
	args := append([]string{"build", "-o", bin}, flags...)
	Go(t, RepoRoot(t), env, append(args, pkg)...)
	recordSources(t, RepoRoot(t), env, pkg)
	return bin
}

// ModuleTests runs go test with args in dir, a nested module of the
// repository (slash-separated, relative to its root), which go test ./...
// at the root does not enter, with env added to the environment. The
// module's files are opened first (see Inputs), so that a change to any
// runs the calling test again instead of replaying its result. It logs and
// returns what the tests printed; a failing package fails t with it.
func ModuleTests(t testing.TB, dir string, env []string, args ...string) string {
	t.Helper()
	Inputs(t, dir)
	out := Go(t, filepath.Join(RepoRoot(t), filepath.FromSlash(dir)), env, append([]string{"test"}, args...)...)
	t.Log(out)
	return out
}
