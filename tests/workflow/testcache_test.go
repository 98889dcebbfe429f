package workflow

import (
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asapjs/fiber-template/internal/testkit"
)

// TestTheTestCacheSeesAContractChange runs the Go client's check (is the
// committed client what the generator writes from the contract?) in a copy
// of the repository as a developer runs go test: twice, the second answer
// replayed from go test's cache, then once more after a description in
// api/openapi.json changed, as task spec writes it after a DTO changed.
// The generator reads the contract in a child process, which the cache
// does not see; the third run must run the check again and fail, not
// replay the green result.
func TestTheTestCacheSeesAContractChange(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test three times in a copy of the repository; skipped with -short")
	}
	t.Parallel()
	dir := copyWorkTree(t)
	// go test caches no result that read a file changed in the last two
	// seconds; the copy's files are as old as the repository's could be.
	age(t, dir, time.Now().Add(-time.Hour))

	goTest := func() (string, error) {
		cmd := exec.CommandContext(testkit.Context(t), "go", "test", "-run", "^TestGoClientIsCurrent$", "./tests/clients/")
		cmd.Dir = dir
		cmd.Env = append(cmd.Environ(), "GOFLAGS="+withoutCount(os.Getenv("GOFLAGS")))
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	steps := []struct {
		name   string
		before func(t *testing.T)
		cached bool
		fails  bool
	}{
		{name: "the first run checks the client and passes"},
		{name: "the second run is replayed from the cache", cached: true},
		{name: "after the contract changed, the check runs again and fails", before: func(t *testing.T) { editContract(t, dir) }, fails: true},
	}
	for _, step := range steps {
		if step.before != nil {
			step.before(t)
		}
		out, err := goTest()
		if failed := err != nil; failed != step.fails {
			t.Fatalf("%s: go test failed: %t, want %t:\n%s", step.name, failed, step.fails, out)
		}
		if cached := strings.Contains(out, "(cached)"); cached != step.cached {
			t.Fatalf("%s: the result was replayed from the cache: %t, want %t:\n%s", step.name, cached, step.cached, out)
		}
		if step.fails && !strings.Contains(out, "client.gen.go is not what task clients generates") {
			t.Errorf("%s: the failure does not name the stale client:\n%s", step.name, out)
		}
	}
}

// editContract changes the description of every member of the User
// schema in the copy's api/openapi.json, which the Go client carries as
// comments.
func editContract(t *testing.T, dir string) {
	t.Helper()
	path := filepath.Join(dir, "api", "openapi.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	user := member(member(member(doc, "components"), "schemas"), "User")
	edited := 0
	for _, p := range member(user, "properties") {
		if prop, ok := p.(map[string]any); ok {
			if d, ok := prop["description"].(string); ok {
				prop["description"] = d + " (edited)"
				edited++
			}
		}
	}
	if edited == 0 {
		t.Fatal("api/openapi.json: the User schema has no member with a description to edit")
	}
	if b, err = json.MarshalIndent(doc, "", "  "); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// member is the JSON object obj holds under name, nil if none.
func member(obj map[string]any, name string) map[string]any {
	m, _ := obj[name].(map[string]any)
	return m
}

// age sets the modification time of every file under dir to when.
func age(t *testing.T, dir string, when time.Time) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(p, when, when)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// withoutCount is a GOFLAGS value without its -count flag, which would
// turn the test cache off.
func withoutCount(goflags string) string {
	var kept []string
	for _, f := range strings.Fields(goflags) {
		if !strings.HasPrefix(strings.TrimLeft(f, "-"), "count") {
			kept = append(kept, f)
		}
	}
	return strings.Join(kept, " ")
}
