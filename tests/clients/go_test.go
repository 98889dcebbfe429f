package clients

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asapjs/fiber-template/internal/testkit"
)

// TestGoClient runs the tests of the module clients/go against the built
// service: its ListUsersAll walks every page of the users list, and the
// account flow goes through the typed client.
func TestGoClient(t *testing.T) {
	t.Parallel()
	out := testkit.ModuleTests(t, "clients/go", serve(t), "-count=1", "-v", "./...")
	for _, name := range []string{"TestListUsersAllWalksEveryPage", "TestSignUpLogInRefresh", "TestSessionsCanBeListedAndEnded"} {
		if !strings.Contains(out, "--- PASS: "+name+" ") {
			t.Errorf("%s did not run and pass against the service", name)
		}
	}
}

// TestGoClientIsCurrent generates the Go client from the committed
// contract, as task clients does, and compares it with the committed one.
// The generators read the contract and their configuration in child
// processes, so the test opens them itself, and the committed client, for
// go test's cache to see a change to any of them.
func TestGoClientIsCurrent(t *testing.T) {
	t.Parallel()
	testkit.Inputs(t, goClientInputs...)
	root := testkit.RepoRoot(t)
	dir := t.TempDir()
	gen := filepath.Join(dir, "client.gen.go")
	testkit.Go(t, root, nil, "tool", "-modfile=go.tool.mod", "oapi-codegen",
		"-config", filepath.Join("clients", "go", "oapi-codegen.yaml"), "-o", gen, filepath.Join("api", "openapi.json"))
	pages := filepath.Join(dir, "pages.gen.go")
	testkit.Go(t, filepath.Join(root, "clients", "go"), nil, "run", "./internal/pagesgen", filepath.Join("..", "..", "api", "openapi.json"), pages)
	for name, fresh := range map[string]string{"client.gen.go": gen, "pages.gen.go": pages} {
		sameFile(t, fresh, filepath.Join(root, "clients", "go", "apiclient", name))
	}
}

// goClientInputs are what TestGoClientIsCurrent's generators read and what
// it compares: the contract, the pinned oapi-codegen, and the module
// clients/go with its configuration, its pages generator and the
// committed client.
var goClientInputs = []string{"api/openapi.json", "go.tool.mod", "go.tool.sum", "clients/go"}

// sameFile fails t unless the committed file has the content of the one
// generated fresh.
func sameFile(t *testing.T, fresh, committed string) {
	t.Helper()
	want, err := os.ReadFile(fresh)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(committed)
	if err != nil {
		t.Fatalf("%v; generate the clients with: task clients", err)
	}
	if !bytes.Equal(got, want) {
		rel, _ := filepath.Rel(testkit.RepoRoot(t), committed)
		t.Errorf("%s is not what task clients generates from the contract in api/: run task clients (after task spec) and commit the result", rel)
	}
}
