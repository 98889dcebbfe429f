package clients

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asapjs/fiber-template/internal/testkit"
)

// TestTypeScriptClient installs the TypeScript client's pinned packages,
// checks that its generated code is what npm run generate writes from the
// committed contract, type-checks it, and runs its node --test suite,
// which walks every page of the users list, against the built service.
func TestTypeScriptClient(t *testing.T) {
	t.Parallel()
	node, npm := testkit.Node(t, "to test the TypeScript client")
	// npm and node read these, not the test: opened here, a change to any
	// of them makes go test run the test again instead of replaying it.
	testkit.Inputs(t, "api/openapi.json", "clients/ts")
	dir := filepath.Join(testkit.RepoRoot(t), "clients", "ts")
	run(t, dir, nil, npm, "ci", "--no-audit", "--no-fund")

	fresh := t.TempDir()
	run(t, dir, nil, node, filepath.Join("scripts", "generate.mjs"), fresh)
	for _, name := range []string{"schema.d.ts", "pagination.gen.js", "pagination.gen.d.ts"} {
		sameFile(t, filepath.Join(fresh, name), filepath.Join(dir, "src", name))
	}
	run(t, dir, nil, npm, "run", "typecheck")

	out := run(t, dir, serve(t), npm, "test")
	t.Log(out)
	if !strings.Contains(out, "# skipped 0") || strings.Contains(out, "# pass 0") {
		t.Error("the TypeScript client's suite skipped its tests against the service")
	}
}

// run runs a program in dir with env added to the test's environment, and
// returns its output; it fails t when the program does.
func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(testkit.Context(t), name, args...)
	cmd.Dir = dir
	cmd.Env = append(cmd.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v in %s: %v\n%s", filepath.Base(name), args, dir, err, out)
	}
	return string(out)
}
