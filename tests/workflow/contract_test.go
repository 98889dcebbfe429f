package workflow

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asapjs/fiber-template/internal/testkit"
)

// TestTheContractGateCatchesABreakingChange changes a copy of the
// repository as a developer would: a member of the User answer edited in
// its DTO, the contract written again (go run ./cmd/api spec -dir api, as
// task spec does), then the gate (task api:diff) run against the contract
// before the change. Renaming the member breaks every client that reads
// it, and oasdiff's report must fail the gate and say so; adding an
// optional member breaks nobody and must pass.
func TestTheContractGateCatchesABreakingChange(t *testing.T) {
	if testing.Short() {
		t.Skip("writes the contract and runs the gate in a copy of the repository; skipped with -short")
	}
	t.Parallel()
	dir := copyWorkTree(t)
	before := filepath.Join(t.TempDir(), "openapi.json")
	contract, err := os.ReadFile(filepath.Join(dir, "api", "openapi.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(before, contract, 0o644); err != nil {
		t.Fatal(err)
	}
	dtoFile := filepath.Join(dir, "app", "dto", "user.go")
	dto, err := os.ReadFile(dtoFile)
	if err != nil {
		t.Fatal(err)
	}
	const nameField = "Name string `json:\"name\" "
	cases := []struct {
		name     string
		edit     string
		breaking bool
		report   string
	}{
		{"a renamed member breaks", "Name string `json:\"full_name\" ", true, "response-required-property-removed"},
		{"an optional member does not", "Nickname string `json:\"nickname,omitempty\" doc:\"What friends call the user\"`\n\t" + nameField, false, "nickname"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if !bytes.Contains(dto, []byte(nameField)) {
				t.Fatalf("app/dto/user.go has no %q to edit", nameField)
			}
			if err := os.WriteFile(dtoFile, bytes.Replace(dto, []byte(nameField), []byte(tc.edit), 1), 0o644); err != nil {
				t.Fatal(err)
			}
			testkit.Go(t, dir, nil, "run", "./cmd/api", "spec", "-dir", "api")
			written, err := os.ReadFile(filepath.Join(dir, "api", "openapi.json"))
			if err != nil || bytes.Equal(written, contract) {
				t.Fatalf("task spec did not write the change into api/openapi.json (%v)", err)
			}
			cmd := exec.CommandContext(testkit.Context(t), "go", "test", "-count=1", "-v", "-run", "^TestNoBreakingChange$", "./tests/contract")
			cmd.Dir = dir
			cmd.Env = append(cmd.Environ(), "API_BASE="+before)
			out, err := cmd.CombinedOutput()
			report := string(out)
			if failed := err != nil; failed != tc.breaking {
				t.Fatalf("the gate failed: %t, want %t:\n%s", failed, tc.breaking, report)
			}
			if tc.breaking && (!strings.Contains(report, tc.report) || !strings.Contains(report, "breaks its clients")) {
				t.Errorf("the gate failed without oasdiff's %s report:\n%s", tc.report, report)
			}
			if !tc.breaking && !strings.Contains(string(written), tc.report) {
				t.Errorf("the contract does not document %s:\n%s", tc.report, report)
			}
		})
	}
}
