package library

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"

	"github.com/asapjs/fiber-template/internal/changelog"
	"github.com/asapjs/fiber-template/internal/testkit"
)

// libraryPath is the platform's module path, which a service in library
// mode requires.
const libraryPath = "github.com/asapjs/fiber-template/platform"

// TestLibraryModeMakesAServiceOnThePlatformModule publishes this
// repository's platform/ on a file-system GOPROXY, as the version
// platform/CHANGELOG.md names last (v1.0.0 while it names none), renames
// a copy of the repository with starter rename --library, and checks the
// service as a user would: no platform/ or tests of it, every go.mod
// requiring the platform's version without a replace, go build ./...
// passing, and a resource generated into it that imports the library,
// compiles, and whose generated test passes on PostgreSQL and SQLite.
// Nothing leaves the machine: the proxy serves the platform, the module
// cache's download directory everything else.
func TestLibraryModeMakesAServiceOnThePlatformModule(t *testing.T) {
	needsLibraryMode(t)
	t.Parallel()
	dir := testkit.CopyWorkTree(t)
	version, err := changelog.NewestOrFirstOf(filepath.Join(dir, "platform", "CHANGELOG.md"))
	if err != nil {
		t.Fatal(err)
	}
	proxy := testkit.NewModuleProxy(t)
	proxy.Add(t, libraryPath, version, filepath.Join(dir, "platform"))
	env := proxy.Env()

	out := testkit.Go(t, dir, env, "run", "./cmd/starter", "rename", "--library", "example.com/shop")
	if !strings.Contains(out, "in library mode") || !strings.Contains(out, version) {
		t.Errorf("rename --library said:\n%s\nwant it to name library mode and %s", out, version)
	}
	for _, gone := range []string{"platform", "tests/platform", "tests/apigate"} {
		if _, err := os.Stat(filepath.Join(dir, gone)); !os.IsNotExist(err) {
			t.Errorf("%s is there after rename --library (%v)", gone, err)
		}
	}
	for _, mod := range []string{".", "bench", "bench/huma", "tests/kubernetes"} {
		requiresLibrary(t, filepath.Join(dir, mod), version)
	}
	if sum, err := os.ReadFile(filepath.Join(dir, "go.sum")); err != nil || !strings.Contains(string(sum), libraryPath+" "+version+" h1:") {
		t.Errorf("go.sum has no sum of %s %s (%v)", libraryPath, version, err)
	}
	testkit.Go(t, dir, env, "build", "./...")

	testkit.Go(t, dir, env, "run", "./cmd/starter", "resource", "gadgets", "label:string", "qty:int", "note:string?")
	controller, err := os.ReadFile(filepath.Join(dir, "app", "controllers", "gadgets.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(controller), `"`+libraryPath+`/router"`) {
		t.Errorf("the generated controller does not import the platform's router by the library's path:\n%s", controller)
	}
	testkit.Go(t, dir, env, "vet", "./app/...", "./migrations/...", "./tests/integration/")
	// -v shows which backends ran: a PostgreSQL that is missing skips its
	// half (and fails it under CI), which must not pass unseen.
	out = testkit.Go(t, dir, env, "test", "-count=1", "-v", "-run", "^TestGadgetsResource$", "./tests/integration")
	for _, backend := range []string{"on_PostgreSQL", "on_SQLite"} {
		if !strings.Contains(out, "--- PASS: TestGadgetsResource/"+backend+" ") {
			t.Errorf("the generated test did not pass on %s:\n%s", backend, out)
		}
	}
}

// requiresLibrary fails t unless the go.mod in dir requires the platform
// at version and does not replace it.
func requiresLibrary(t *testing.T, dir, version string) {
	t.Helper()
	name := filepath.Join(dir, "go.mod")
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	f, err := modfile.Parse(name, data, nil)
	if err != nil {
		t.Fatal(err)
	}
	required := ""
	for _, r := range f.Require {
		if r.Mod.Path == libraryPath {
			required = r.Mod.Version
		}
	}
	if required != version {
		t.Errorf("%s requires %s at %q, want %s:\n%s", name, libraryPath, required, version, data)
	}
	for _, r := range f.Replace {
		if r.Old.Path == libraryPath {
			t.Errorf("%s still replaces %s with %s", name, libraryPath, r.New)
		}
	}
}

// upstreamConst finds the template's module path in the starter's
// upstream.go, which rename never rewrites.
var upstreamConst = regexp.MustCompile(`(?m)^const upstreamModule = "([^"]+)"$`)

// onlyInTheTemplate skips t, by design, unless the repository is the
// template with its platform/: a service made from it (its module its
// own, or its platform a library already) has no platform to publish.
func onlyInTheTemplate(t *testing.T) {
	t.Helper()
	root := testkit.RepoRoot(t)
	upstream, err := os.ReadFile(filepath.Join(root, "cmd", "starter", "upstream.go"))
	if err != nil {
		testkit.Skip(t, "tests the template's starter, and this repository has none: skipped by design")
	}
	goMod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	m := upstreamConst.FindSubmatch(upstream)
	if m == nil {
		t.Fatal("cmd/starter/upstream.go declares no const upstreamModule")
	}
	if mod := modfile.ModulePath(goMod); mod != string(m[1]) {
		testkit.Skip(t, "tests the starter on the template itself; this repository is "+mod+" now: skipped by design")
	}
	if _, err := os.Stat(filepath.Join(root, "platform", "go.mod")); err != nil {
		testkit.Skip(t, "publishes platform/, and this repository has none (a service in library mode): skipped by design")
	}
}
