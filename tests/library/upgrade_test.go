package library

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asapjs/fiber-template/internal/testkit"
)

// otherModules are the service's modules beside the root that require the
// platform, by slash path from the root.
var otherModules = []string{"bench", "bench/huma", "tests/kubernetes"}

// TestUpgradePlatformInALibraryService does what docs/upgrading.md says a
// service in library mode does to take a new platform release, with two
// releases made from this repository and served by a module proxy on the
// machine: v1.0.0 is platform/ as it is, v1.1.0 the same with one
// compatible addition (servicetest.WantStatus). In a copy of the
// repository, the starter makes a library-mode service on v1.0.0 and
// generates a resource; the service builds and its tests pass. A test
// that uses the addition does not compile against v1.0.0. After go get
// platform@v1.1.0, go.mod names v1.1.0, the service builds, its tests pass
// again, and so does the test of the addition. The service's other
// modules take v1.1.0 the same way.
//
// The service's tests run here are the ones an upgrade can break and that
// finish in a few minutes: go build ./..., the tests of app's packages
// (go test vets them), and the generated resource's test on PostgreSQL
// and SQLite.
func TestUpgradePlatformInALibraryService(t *testing.T) {
	needsLibraryMode(t)
	t.Parallel()
	start := time.Now()
	step := func(what string) {
		t.Logf("%s: %s", what, time.Since(start).Round(time.Millisecond))
		start = time.Now()
	}

	dir := testkit.CopyWorkTree(t)
	proxy := testkit.NewModuleProxy(t)
	proxy.Add(t, libraryPath, "v1.0.0", filepath.Join(dir, "platform"))
	proxy.Add(t, libraryPath, "v1.1.0", platformWithAddition(t, filepath.Join(dir, "platform")))
	env := proxy.Env()
	step("the copy and the proxy of v1.0.0 and v1.1.0")

	const service = "github.com/acme/gadgets"
	testkit.Go(t, dir, env, "run", "./cmd/starter", "rename", "--library", "--platform-version", "v1.0.0", service)
	if _, err := os.Stat(filepath.Join(dir, "platform")); !os.IsNotExist(err) {
		t.Errorf("a service in library mode has a platform folder (%v)", err)
	}
	requiresLibrary(t, dir, "v1.0.0")
	testkit.Go(t, dir, env, "run", "./cmd/starter", "resource", "gadgets", "label:string", "weight:float64?")
	step("rename --library on v1.0.0 and resource gadgets")
	serviceTests(t, dir, env)
	step("the service's tests on v1.0.0")

	writeAdditionTest(t, dir)
	out := goMustFail(t, dir, env, "vet", "./"+additionTestDir)
	if !strings.Contains(out, "undefined: servicetest.WantStatus") {
		t.Errorf("against v1.0.0, the test of the addition failed, but not for want of it:\n%s", out)
	}
	step("the test of v1.1.0's addition against v1.0.0")

	// docs/upgrading.md's commands: the version in use and the newest,
	// then the upgrade, then the changelog the module ships.
	if out := testkit.Go(t, dir, env, "list", "-m", "-u", libraryPath); out != libraryPath+" v1.0.0 [v1.1.0]\n" {
		t.Errorf("go list -m -u %s = %q, want v1.0.0 with v1.1.0 available", libraryPath, out)
	}
	testkit.Go(t, dir, env, "get", libraryPath+"@v1.1.0")
	requiresLibrary(t, dir, "v1.1.0")
	testkit.Go(t, dir, env, "mod", "tidy")
	for _, mod := range otherModules {
		modDir := filepath.Join(dir, filepath.FromSlash(mod))
		testkit.Go(t, modDir, env, "get", libraryPath+"@v1.1.0")
		testkit.Go(t, modDir, env, "mod", "tidy")
		requiresLibrary(t, modDir, "v1.1.0")
	}
	moduleDir := strings.TrimSpace(testkit.Go(t, dir, env, "list", "-m", "-f", "{{.Dir}}", libraryPath))
	if _, err := os.Stat(filepath.Join(moduleDir, "CHANGELOG.md")); err != nil {
		t.Errorf("the platform v1.1.0 has no changelog to read: %v", err)
	}
	serviceTests(t, dir, env)
	out = testkit.Go(t, dir, env, "test", "-count=1", "-v", "./"+additionTestDir)
	if !strings.Contains(out, "--- PASS: TestWantStatus ") {
		t.Errorf("the test of v1.1.0's addition did not pass:\n%s", out)
	}
	step("go get platform@v1.1.0 and the service's tests on it")
}

// serviceTests builds the service in dir and runs the tests an
// upgrade of the platform can break: app's packages, and the generated
// gadgets resource's test on both databases.
func serviceTests(t *testing.T, dir string, env []string) {
	t.Helper()
	testkit.Go(t, dir, env, "build", "./...")
	testkit.Go(t, dir, env, "test", "-count=1", "./app/...")
	// -v shows which databases ran: a PostgreSQL that is missing skips its
	// half (and fails it under CI), which must not pass unseen.
	out := testkit.Go(t, dir, env, "test", "-count=1", "-v", "-run", "^TestGadgetsResource$", "./tests/integration")
	for _, backend := range []string{"on_PostgreSQL", "on_SQLite"} {
		if !strings.Contains(out, "--- PASS: TestGadgetsResource/"+backend+" ") {
			t.Errorf("the generated test did not pass on %s:\n%s", backend, out)
		}
	}
}

// goMustFail runs the go command with args in dir, which must fail, and
// returns what it printed.
func goMustFail(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(testkit.Context(t), testkit.LookPath(t, "install Go", "go"), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("go %s succeeded, want a failure:\n%s", strings.Join(args, " "), out)
	}
	return string(out)
}
