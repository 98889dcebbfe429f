package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestAccountsPlanFitsTheTemplate plans --auth=issuer on this repository:
// every path it removes is here, every line it edits stands once, and the
// files it writes are Go of the new module that names no accounts code.
func TestAccountsPlanFitsTheTemplate(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	const mod = "example.com/acme/orders"
	writes, removals, err := accountsPlan(root, mod)
	if err != nil {
		t.Fatalf("accountsPlan: %v", err)
	}
	for _, p := range []string{"app/accounts", "app/sessions", "app/models/user.go", "cmd/api/users.go",
		"migrations/20250601000000_create_users.go", "tests/integration/users_service_test.go"} {
		if !slices.Contains(removals, p) {
			t.Errorf("the plan keeps %s", p)
		}
	}
	for _, p := range []string{"tests/integration/main_test.go", "migrations/20261126000000_idempotency_keys.go", "app/idempotency.go"} {
		if slices.Contains(removals, p) {
			t.Errorf("the plan removes %s, which a resource server keeps", p)
		}
	}
	for _, name := range []string{"app/app.go", "app/models/roles.go", "cmd/api/options.go", "cmd/api/serve.go", "cmd/api/main.go", "tests/integration/resource_server_test.go", "tests/workflow/deps_test.go"} {
		src, ok := writes[name]
		if !ok {
			t.Errorf("the plan does not write %s", name)
			continue
		}
		for _, gone := range []string{"app/accounts", "app/sessions", "accountOptions", "KeepAccounts", `"users":`} {
			if bytes.Contains(src, []byte(gone)) {
				t.Errorf("%s still names %s", name, gone)
			}
		}
	}
	if !bytes.Contains(writes["app/app.go"], []byte(`"`+mod+`/app/controllers"`)) {
		t.Errorf("app/app.go does not import the new module's controllers:\n%s", writes["app/app.go"])
	}
}

// TestAccountsPlanRefusesAChangedRepository leaves the repository as it
// is when a file of the accounts example is gone already.
func TestAccountsPlanRefusesAChangedRepository(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err := withoutAccounts(root, &out)
	if err == nil || !strings.Contains(err.Error(), "is gone already") || !strings.Contains(err.Error(), "nothing removed") {
		t.Fatalf("withoutAccounts on a repository without the accounts example: %v, want it refused", err)
	}
	if entries, _ := os.ReadDir(root); len(entries) != 1 {
		t.Errorf("the repository changed: %d entries", len(entries))
	}
}

func TestCheckAuth(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		auth string
		ok   bool
	}{{"", true}, {"issuer", true}, {"oidc", false}, {"Issuer", false}} {
		if err := checkAuth(tc.auth); (err == nil) != tc.ok {
			t.Errorf("checkAuth(%q) = %v, want ok %v", tc.auth, err, tc.ok)
		}
	}
}
