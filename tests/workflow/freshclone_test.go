package workflow

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asapjs/fiber-template/internal/testkit"
)

// insideFreshClone marks the run of the suite that TestFreshClone starts,
// so that the clone does not start another one.
const insideFreshClone = "FRESH_CLONE_RUN"

// absentPrograms are the programs a machine with only Go lacks: the browser,
// Node.js and Docker.
var absentPrograms = map[string]bool{
	"chromium": true, "chromium-browser": true, "google-chrome": true, "google-chrome-stable": true,
	"node": true, "nodejs": true, "npm": true, "npx": true, "corepack": true,
	"docker": true, "podman": true,
}

// TestFreshClone runs the README's test command the way a newcomer does on
// a machine with only Go: in a copy of the repository, CI unset, and no
// Chromium, Node.js or Docker in PATH. It must pass, never hang, and say on
// the terminal which tests skipped for want of what.
func TestFreshClone(t *testing.T) {
	if os.Getenv(insideFreshClone) != "" {
		t.Skip("this is the suite TestFreshClone runs")
	}
	if testing.Short() {
		t.Skip("runs the whole suite again; skipped with -short")
	}
	// The whole suite again doubles a run's time and needs more than one
	// package's default timeout: .ci/run runs it as a step of its own
	// (FRESH_CLONE=1 with a longer -timeout); go test ./... does not.
	if os.Getenv("FRESH_CLONE") == "" {
		testkit.Skip(t, "runs the whole suite again in a copy of the repository: set FRESH_CLONE=1 (.ci/run does)")
	}
	script := testkit.LookPath(t, "install util-linux's script (Debian: bsdutils), which gives the run a terminal", "script")
	dir := copyWorkTree(t)

	cmd := exec.CommandContext(testkit.Context(t), script, "-qec", "go test ./...", "/dev/null")
	cmd.Dir = dir
	cmd.Env = freshEnv(t)
	out, err := cmd.CombinedOutput()
	output := strings.ReplaceAll(string(out), "\r\n", "\n")
	if err != nil {
		t.Fatalf("go test ./... in a fresh copy without Chromium, Node.js or Docker: %v\n%s", err, output)
	}
	t.Logf("go test ./... in a fresh copy:\n%s", output)

	want := testsCalling(t, "browsertest", "Browser")
	want = append(want, "TestTheServedSpecLintsCleanWithRedocly", "TestTypeScriptClient")
	for _, name := range want {
		if !strings.Contains(output, "skip: "+name+" needs ") {
			t.Errorf("the output does not say that %s skipped, nor why", name)
		}
	}
}

// copyWorkTree copies the repository as git sees it into a temporary
// directory (see testkit.CopyWorkTree).
func copyWorkTree(t *testing.T) string { return testkit.CopyWorkTree(t) }

// freshEnv is this process's environment without CI and browser settings,
// with PATH replaced by a directory of links to every program in PATH but
// absentPrograms.
func freshEnv(t *testing.T) []string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if absentPrograms[e.Name()] || e.IsDir() {
				continue
			}
			// The first directory in PATH wins, as in a lookup.
			_ = os.Symlink(filepath.Join(dir, e.Name()), filepath.Join(bin, e.Name()))
		}
	}
	env := []string{"PATH=" + bin, insideFreshClone + "=1"}
	for _, kv := range os.Environ() {
		key, _, _ := strings.Cut(kv, "=")
		switch key {
		case "PATH", "CI", "CHROMIUM_PATH", "FRESH_CLONE", insideFreshClone:
			continue
		}
		env = append(env, kv)
	}
	return env
}
