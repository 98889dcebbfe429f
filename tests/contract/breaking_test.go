package contract

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asapjs/fiber-template/internal/testkit"
)

// contractFile is the committed OpenAPI 3.0 document, relative to the
// repository root; oasdiff compares 3.0 documents.
const contractFile = "api/openapi.json"

// TestNoBreakingChange compares the committed contract with the one it
// changes, by oasdiff's breaking-change checks: a removed operation or
// member, a narrowed type, a new required input fails it, unless
// info.version's major grew. The base is API_BASE (a file, or a git ref
// whose api/openapi.json is read), else the last tag, else the default
// branch (origin/HEAD, origin/main or main). task api:diff runs it with -v,
// which prints oasdiff's report whatever it finds.
func TestNoBreakingChange(t *testing.T) {
	t.Parallel()
	root := testkit.RepoRoot(t)
	// oasdiff and git read these in child processes: opened here, a new
	// oasdiff, or a moved tag or branch, makes go test run the test again
	// instead of replaying its result.
	testkit.Inputs(t, append([]string{contractFile, "go.tool.mod", "go.tool.sum"}, testkit.GitRefs(root)...)...)
	revisionPath := filepath.Join(root, contractFile)
	revision, err := os.ReadFile(revisionPath)
	if err != nil {
		t.Fatalf("%v; write the contract with: task spec", err)
	}
	base, from := baseContract(t, root)
	if base == nil {
		t.Logf("no contract to compare with (%s): nothing can break yet", from)
		return
	}
	t.Logf("comparing %s with %s", contractFile, from)
	if bytes.Equal(base, revision) {
		t.Log("the contract is unchanged")
		return
	}
	basePath := filepath.Join(t.TempDir(), "base.json")
	if err := os.WriteFile(basePath, base, 0o644); err != nil {
		t.Fatal(err)
	}
	oasdiff := testkit.Tool(t, "oasdiff")
	cmd := exec.CommandContext(testkit.Context(t), oasdiff, "breaking", "--fail-on", "ERR", basePath, revisionPath)
	report, err := cmd.CombinedOutput()
	t.Logf("oasdiff breaking:\n%s", report)
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit) && exit.ExitCode() == 1:
		baseMajor, revMajor := major(t, base), major(t, revision)
		if revMajor > baseMajor {
			t.Logf("breaking changes, announced by info.version's major (%d → %d)", baseMajor, revMajor)
			return
		}
		t.Errorf("the contract breaks its clients (oasdiff's report above) while info.version's major stays %d: keep the old shape, or raise the major version", revMajor)
	default:
		t.Fatalf("oasdiff: %v\n%s", err, report)
	}
}

// baseContract returns the contract to compare with and where it comes
// from; nil when the base has none.
func baseContract(t *testing.T, root string) ([]byte, string) {
	t.Helper()
	ref := os.Getenv("API_BASE")
	if ref != "" {
		if b, err := os.ReadFile(ref); err == nil {
			return b, ref
		}
	} else {
		ref = defaultBase(root)
	}
	if ref == "" {
		return nil, "no tag and no default branch"
	}
	b, err := testkit.Git(root, "show", ref+":"+contractFile)
	if err != nil {
		if os.Getenv("API_BASE") != "" {
			t.Fatalf("API_BASE=%s is neither a file nor a git ref with %s: %v", ref, contractFile, err)
		}
		return nil, ref + " has no " + contractFile
	}
	return b, ref
}

// defaultBase is the last tag, else the default branch, else "". The
// platform's own release tags (platform/vX.Y.Z) version its Go API, not the
// service's contract, and are not counted.
func defaultBase(root string) string {
	if tag, err := testkit.Git(root, "describe", "--tags", "--abbrev=0", "--exclude", "platform/*"); err == nil {
		return strings.TrimSpace(string(tag))
	}
	for _, ref := range []string{"origin/HEAD", "origin/main", "main"} {
		if _, err := testkit.Git(root, "rev-parse", "--verify", "--quiet", ref); err == nil {
			return ref
		}
	}
	return ""
}

// major returns the major version of a document's info.version.
func major(t *testing.T, doc []byte) int {
	t.Helper()
	var d struct {
		Info struct {
			Version string `json:"version"`
		} `json:"info"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatalf("read info.version: %v", err)
	}
	n := 0
	for _, r := range strings.TrimPrefix(d.Info.Version, "v") {
		if r < '0' || r > '9' {
			break
		}
		n = n*10 + int(r-'0')
	}
	return n
}
