package apigate

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asapjs/fiber-template/internal/testkit"
)

// changelogFile is the platform's changelog, relative to the repository
// root.
const changelogFile = "platform/CHANGELOG.md"

// verdict is what the gate found in a repository: what it compared, the
// changes, and why it fails (nothing when it passes).
type verdict struct {
	notes    []string
	compared bool
	changes  changes
	problems []string
}

func (v *verdict) note(format string, args ...any) {
	v.notes = append(v.notes, fmt.Sprintf(format, args...))
}

func (v *verdict) fail(format string, args ...any) {
	v.problems = append(v.problems, fmt.Sprintf(format, args...))
}

// report logs what the gate compared and found, and fails t with each of
// its problems.
func (v verdict) report(t testing.TB) {
	t.Helper()
	for _, n := range v.notes {
		t.Log(n)
	}
	if v.compared && len(v.changes.incompatible)+len(v.changes.compatible) == 0 {
		t.Log("no change to the platform's exported API")
	}
	for _, group := range []struct {
		name  string
		lines []string
	}{{"incompatible", v.changes.incompatible}, {"compatible", v.changes.compatible}} {
		if len(group.lines) > 0 {
			t.Logf("%s changes (apidiff):\n%s", group.name, bullets(group.lines))
		}
	}
	for _, p := range v.problems {
		t.Error(p)
	}
}

// TestAPIGate compares the platform's exported API in the work tree with
// the one of its base (API_BASE, a git ref; else the newest platform/v*
// tag; else the default branch, or HEAD's first parent when that is HEAD)
// by apidiff. An incompatible change fails it once the platform is
// released (a "## [X.Y.Z]" heading in platform/CHANGELOG.md, X ≥ 1),
// unless the module path's major version grew; and fails it too when the
// changelog does not write the change down. Before the first release it
// reports the changes and passes. task api:gate runs it with -v.
func TestAPIGate(t *testing.T) {
	t.Parallel()
	root := testkit.RepoRoot(t)
	// apidiff and git read these in child processes: opened here, a change
	// to the platform, a new apidiff, or a moved tag or branch makes go
	// test run the gate again instead of replaying its result.
	testkit.Inputs(t, append([]string{"platform", "go.tool.mod", "go.tool.sum"}, testkit.GitRefs(root)...)...)
	check(t, root, os.Getenv("API_BASE")).report(t)
}

// check runs the gate on the repository at root, whose work tree's
// platform/ is compared with the base's (see baseCommit; override is
// API_BASE). Failures to run git or apidiff fail t; what the gate itself
// finds is in the verdict.
func check(t testing.TB, root, override string) verdict {
	t.Helper()
	var v verdict
	commit, from := baseCommit(t, root, override)
	if commit == "" {
		v.note("%s", from)
		return v
	}
	baseDir := extractPlatform(t, root, commit)
	if baseDir == "" {
		v.note("%s (%.12s) has no platform module: nothing to compare with", from, commit)
		return v
	}
	v.note("comparing platform/ with %.12s: %s", commit, from)
	headDir := filepath.Join(root, "platform")
	v.changes, v.compared = apiChanges(t, baseDir, headDir), true
	if len(v.changes.incompatible) == 0 {
		return v
	}
	headLog := readFile(t, filepath.Join(root, filepath.FromSlash(changelogFile)))
	rel, ok := released(headLog)
	if !ok || rel.major < 1 {
		v.note("%d incompatible changes, allowed: the platform has no release from v1 on yet (no \"## [X.Y.Z]\" heading with X ≥ 1 in %s), and v0 promises nothing", len(v.changes.incompatible), changelogFile)
		return v
	}
	oldPath, newPath := mustModulePath(t, baseDir), mustModulePath(t, headDir)
	if pathMajor(newPath) <= pathMajor(oldPath) {
		v.fail("the platform's API changed incompatibly since %s while it is released as %s (%s) and its module path stays %s: keep the old API working beside the new one (add, deprecate, do not remove or change), or release v%d with the module path %s/v%d (docs/releasing.md). The incompatible changes:\n%s",
			from, rel, changelogFile, newPath, pathMajor(newPath)+1, strings.TrimSuffix(newPath, majorSuffix(newPath)), pathMajor(newPath)+1, bullets(v.changes.incompatible))
	}
	baseLog := readFile(t, filepath.Join(baseDir, "CHANGELOG.md"))
	if !writtenDown(headLog, baseLog) {
		v.fail("the incompatible changes since %s are not written down: %s's Unreleased section needs an entry under %q or %q, with how to upgrade:\n%s",
			from, changelogFile, incompatibleKinds[0], incompatibleKinds[1], bullets(v.changes.incompatible))
	}
	return v
}

// majorSuffix is a module path's /vN suffix, "" when it has none.
func majorSuffix(module string) string {
	if n := pathMajor(module); n >= 2 {
		return fmt.Sprintf("/v%d", n)
	}
	return ""
}

func mustModulePath(t testing.TB, dir string) string {
	t.Helper()
	path, err := modulePath(dir)
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// readFile returns the file's text, "" when it does not exist.
func readFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(b)
}

// bullets writes lines as a list, one "- line" each.
func bullets(lines []string) string {
	return "- " + strings.Join(lines, "\n- ")
}
