package contract

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/asapjs/fiber-template/internal/testkit"
)

// TestContractValidates checks both committed documents with
// libopenapi-validator (pinned in go.tool.mod), a maintained validator of
// OpenAPI 3.0 and 3.1 against their specifications' schemas; kin-openapi
// and Redocly check the served documents in tests/integration. A document
// broken on purpose must fail it, so a validator that accepts anything
// cannot pass for one.
func TestContractValidates(t *testing.T) {
	t.Parallel()
	// The validator reads the documents in a child process: opened here,
	// a change to either, or a new validator, makes go test run the test
	// again instead of replaying its result.
	testkit.Inputs(t, "api", "go.tool.mod", "go.tool.sum")
	root := testkit.RepoRoot(t)
	validate := testkit.Tool(t, "validate")
	run := func(path string) ([]byte, error) {
		return exec.CommandContext(testkit.Context(t), validate, path).CombinedOutput()
	}
	for _, name := range []string{"openapi.json", "openapi-3.1.json"} {
		path := filepath.Join(root, "api", name)
		if out, err := run(path); err != nil {
			t.Errorf("api/%s does not validate: %v\n%s", name, err, out)
		}
		broken := breakDocument(t, path)
		if out, err := run(broken); err == nil {
			t.Errorf("api/%s with a response description that is a number validates:\n%s", name, out)
		}
	}
}

// breakDocument writes a copy of the document at path whose first
// response description is a number, which no OpenAPI version allows, and
// returns the copy's path.
func breakDocument(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	ops := doc["paths"].(map[string]any)["/health-check"].(map[string]any)
	ops["get"].(map[string]any)["responses"].(map[string]any)["200"].(map[string]any)["description"] = 7
	if b, err = json.Marshal(doc); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), filepath.Base(path))
	if err := os.WriteFile(out, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}
