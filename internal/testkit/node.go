package testkit

import (
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// minNodeMajor is the oldest Node.js major version the JavaScript tools of
// the tests (Redocly, @dbml/core) support.
const minNodeMajor = 20

// Node returns the paths of node and npm, or ends t through Missing when
// either is not in PATH or node is older than Node.js 20. purpose says what
// the test runs them for, as "to lint the spec with Redocly".
func Node(t testing.TB, purpose string) (node, npm string) {
	t.Helper()
	install := fmt.Sprintf("install Node.js %d or newer (Debian 13: nodejs npm; Debian 12's is too old) %s", minNodeMajor, purpose)
	node = LookPath(t, install, "node")
	npm = LookPath(t, install, "npm")
	out, err := exec.CommandContext(Context(t), node, "--version").Output()
	if err != nil {
		t.Fatalf("testkit: %s --version: %v", node, err)
	}
	version := strings.TrimSpace(string(out))
	if major, ok := nodeMajor(version); !ok || major < minNodeMajor {
		Missing(t, fmt.Sprintf("Node.js %d or newer, but %s is %s: %s", minNodeMajor, node, version, install))
	}
	return node, npm
}

// nodeMajor parses the major version out of node --version's "v20.1.0".
func nodeMajor(version string) (int, bool) {
	major, _, _ := strings.Cut(strings.TrimPrefix(version, "v"), ".")
	n, err := strconv.Atoi(major)
	return n, err == nil
}
