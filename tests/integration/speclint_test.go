package integration

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/asapjs/fiber-template/internal/testkit"
	"github.com/asapjs/fiber-template/platform/router"
)

// servedSpec is the document the example service serves at name under
// /api/docs: spec.json (OpenAPI 3.0) or spec-3.1.json.
func servedSpec(t *testing.T, name string) []byte {
	t.Helper()
	r := newService(t, inMemory, router.Config{BasePath: "/api", JWTSecret: []byte("lint-secret-0123456789abcdef0123")})
	res := send(t, r, "GET", "/api/docs/"+name, nil)
	if res.status != 200 {
		t.Fatalf("%s: status %d", name, res.status)
	}
	return res.body
}

func TestTheServedSpecValidatesWithKinOpenAPI(t *testing.T) {
	t.Parallel()
	doc, err := openapi3.NewLoader().LoadFromData(servedSpec(t, "spec.json"))
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("validate: %v", err)
	}
	if doc.Paths.Find("/api/auth/login") == nil || doc.Paths.Find("/api/users/{id}") == nil {
		t.Fatal("the example routes are not documented")
	}
}

// TestTheServedSpecLintsCleanWithRedocly runs Redocly's recommended rules,
// pinned in tests/lint, over the served documents, OpenAPI 3.0 and 3.1:
// errors fail the test.
func TestTheServedSpecLintsCleanWithRedocly(t *testing.T) {
	if testing.Short() {
		t.Skip("lint runs node; skipped with -short")
	}
	lintDir := filepath.Join(testkit.RepoRoot(t), "tests", "lint")
	node, npm := testkit.Node(t, "to lint the spec with Redocly")
	cli := filepath.Join(lintDir, "node_modules", "@redocly", "cli", "bin", "cli.js")
	if _, err := os.Stat(cli); err != nil {
		install := exec.CommandContext(testkit.Context(t), npm, "ci", "--no-audit", "--no-fund")
		install.Dir = lintDir
		if out, err := install.CombinedOutput(); err != nil {
			t.Fatalf("npm ci in tests/lint: %v\n%s", err, out)
		}
	}
	for _, name := range []string{"spec.json", "spec-3.1.json"} {
		spec := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(spec, servedSpec(t, name), 0o600); err != nil {
			t.Fatal(err)
		}
		lint := exec.CommandContext(testkit.Context(t), node, cli, "lint", "--config", filepath.Join(lintDir, "redocly.yaml"), spec)
		out, err := lint.CombinedOutput()
		if err != nil {
			t.Fatalf("redocly lint found errors in %s: %v\n%s", name, err, out)
		}
		t.Logf("redocly lint of %s:\n%s", name, out)
	}
}
