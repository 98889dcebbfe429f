package apigate

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/asapjs/fiber-template/internal/testkit"
)

// farewell is an exported function that the copies' release has and their
// next change removes: one made for the test, so that no change to the
// real API can take the case away.
const farewell = `package problem

// Farewell is released in a copy of the repository, then removed.
func Farewell() string { return "farewell" }
`

// welcome is an exported function that a copy's next change adds.
const welcome = `package problem

// Welcome is added in a copy of the repository after its release.
func Welcome() string { return "welcome" }
`

// TestAPIGateCatchesARemovedFunction releases the platform in a clone of
// the repository (problem.Farewell among its API, the changelog's
// Unreleased section become the release's, the commit tagged
// platform/vX.Y.Z), then removes Farewell in a commit, and runs the gate
// there (check, the code TestAPIGate runs). The removal fails it, naming
// the function, while the module path stays; writing it down in the
// changelog is needed too, and both together with the /v2 module path let
// it pass.
func TestAPIGateCatchesARemovedFunction(t *testing.T) {
	if testing.Short() {
		t.Skip("releases the platform in a clone of the repository and runs the gate there; skipped with -short")
	}
	t.Parallel()
	released := releasedCopy(t)
	const removed = "./problem.Farewell: removed"
	const stays, unwritten = "its module path stays", "are not written down"
	cases := []struct {
		name      string
		written   bool // the removal written down under ### Removed
		nextMajor bool // the module path's major suffix grown
		problems  []string
	}{
		{"unannounced", false, false, []string{stays, unwritten}},
		{"written down, the same module path", true, false, []string{stays}},
		{"not written down, a new major version", false, true, []string{unwritten}},
		{"written down, a new major version", true, true, nil},
	}
	for _, tc := range cases {
		// One after another: the cases share their compiled packages
		// through go's build cache, which parallel cases would each
		// compile again on a machine of few cores.
		t.Run(tc.name, func(t *testing.T) {
			dir := cloneOf(t, released)
			if err := os.Remove(filepath.Join(dir, "platform", "problem", "farewell.go")); err != nil {
				t.Fatal(err)
			}
			if tc.written {
				editFile(t, dir, changelogFile, "## Unreleased\n", "## Unreleased\n\n### Removed\n\n- `problem.Farewell`: nothing replaces it.\n")
			}
			if tc.nextMajor {
				nextMajorPath(t, filepath.Join(dir, "platform"))
			}
			commitAll(t, dir, "platform: problem.Farewell removed")
			v := check(t, dir, "")
			t.Logf("the gate's problems:\n%s", strings.Join(v.problems, "\n"))
			if !slices.Contains(v.changes.incompatible, removed) {
				t.Errorf("apidiff's incompatible changes %q lack %q", v.changes.incompatible, removed)
			}
			if len(v.problems) != len(tc.problems) {
				t.Fatalf("the gate found %d problems, want %d (%q)", len(v.problems), len(tc.problems), tc.problems)
			}
			for i, want := range tc.problems {
				if !strings.Contains(v.problems[i], want) || !strings.Contains(v.problems[i], removed) {
					t.Errorf("problem %d says neither %q nor %q:\n%s", i, want, removed, v.problems[i])
				}
			}
		})
	}
}

// TestAPIGatePassesAnAddedFunction releases the platform in a clone as
// TestAPIGateCatchesARemovedFunction does, then adds problem.Welcome: a
// compatible change, which the gate reports and passes.
func TestAPIGatePassesAnAddedFunction(t *testing.T) {
	if testing.Short() {
		t.Skip("releases the platform in a clone of the repository and runs the gate there; skipped with -short")
	}
	t.Parallel()
	dir := cloneOf(t, releasedCopy(t))
	writeRepoFile(t, dir, "platform/problem/welcome.go", welcome)
	commitAll(t, dir, "platform: problem.Welcome")
	v := check(t, dir, "")
	if len(v.problems) > 0 || len(v.changes.incompatible) > 0 {
		t.Errorf("an added function failed the gate: %q, incompatible changes %q", v.problems, v.changes.incompatible)
	}
	const added = "./problem.Welcome: added"
	if !slices.Contains(v.changes.compatible, added) {
		t.Errorf("apidiff's compatible changes %q lack %q", v.changes.compatible, added)
	}
}

// releasedCopy clones the repository's commits (not its tags) into a
// temporary directory of t and releases the platform there as a
// maintainer would: problem.Farewell added, the changelog's Unreleased
// section become the next version's (v1.0.0 when there is none yet), the
// commit tagged platform/vX.Y.Z. It returns the clone's directory.
func releasedCopy(t *testing.T) string {
	t.Helper()
	testkit.LookPath(t, "install git", "git")
	root := testkit.RepoRoot(t)
	if _, err := revParse(root, "HEAD"); err != nil {
		testkit.Missing(t, "a git repository with a commit to clone: "+err.Error())
	}
	dir := filepath.Join(t.TempDir(), "released")
	gitIn(t, root, "clone", "--quiet", "--no-tags", root, dir)
	writeRepoFile(t, dir, "platform/problem/farewell.go", farewell)
	next := version{1, 0, 0}
	if rel, ok := released(readFile(t, filepath.Join(dir, changelogFile))); ok && rel.major >= 1 {
		next = version{rel.major, rel.minor + 1, 0}
	}
	heading := "## [" + strings.TrimPrefix(next.String(), "v") + "] - " + time.Now().UTC().Format(time.DateOnly)
	editFile(t, dir, changelogFile, "## Unreleased\n", "## Unreleased\n\n"+heading+"\n")
	commitAll(t, dir, "platform: release "+next.String())
	gitIn(t, dir, "-c", "tag.gpgSign=false", "tag", "platform/"+next.String())
	return dir
}

// cloneOf clones the repository at src, its tags included, into a
// temporary directory of t.
func cloneOf(t *testing.T, src string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "clone")
	gitIn(t, src, "clone", "--quiet", src, dir)
	return dir
}

// nextMajorPath moves the module in dir to the next major version's path
// (/v2 after none), in its go.mod and in every import of its own
// packages, as a maintainer does for a release that breaks its API.
func nextMajorPath(t *testing.T, dir string) {
	t.Helper()
	old := mustModulePath(t, dir)
	next := fmt.Sprintf("%s/v%d", strings.TrimSuffix(old, majorSuffix(old)), pathMajor(old)+1)
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || (d.Name() != "go.mod" && !strings.HasSuffix(d.Name(), ".go")) {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		s := strings.ReplaceAll(string(b), `"`+old+`/`, `"`+next+`/`)
		if d.Name() == "go.mod" {
			s = strings.Replace(s, "module "+old+"\n", "module "+next+"\n", 1)
		}
		return os.WriteFile(path, []byte(s), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := mustModulePath(t, dir); got != next {
		t.Fatalf("go.mod's module path is %s after the move, want %s", got, next)
	}
}

// editFile replaces the first old in the repository file name with new;
// a file without old fails t.
func editFile(t *testing.T, dir, name, old, new string) {
	t.Helper()
	text := readFile(t, filepath.Join(dir, filepath.FromSlash(name)))
	if !strings.Contains(text, old) {
		t.Fatalf("%s has no %q to edit", name, old)
	}
	writeRepoFile(t, dir, name, strings.Replace(text, old, new, 1))
}

// writeRepoFile writes text to the repository file name.
func writeRepoFile(t *testing.T, dir, name, text string) {
	t.Helper()
	if err := writeFile(filepath.Join(dir, filepath.FromSlash(name)), strings.NewReader(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// commitAll commits every change of the clone at dir.
func commitAll(t *testing.T, dir, message string) {
	t.Helper()
	gitIn(t, dir, "add", "--all")
	gitIn(t, dir, "-c", "user.name=API gate test", "-c", "user.email=apigate@example.invalid", "-c", "commit.gpgsign=false",
		"commit", "--quiet", "--no-verify", "-m", message)
}

// gitIn runs git with args in dir; a failure fails t.
func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	if _, err := testkit.Git(dir, args...); err != nil {
		t.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
}
