package main

import (
	"maps"
	"os/exec"
	"slices"
	"testing"
)

func TestNodeModulesCurrent(t *testing.T) {
	t.Parallel()
	const lock = `{"name": "c", "lockfileVersion": 3, "packages": {
		"": {"name": "c", "devDependencies": {"a": "1.0.0"}},
		"node_modules/a": {"version": "1.0.0", "integrity": "sha512-a", "dev": true}}}`
	const installed = `{"name": "c", "lockfileVersion": 3, "packages": {
		"node_modules/a": {"version": "1.0.0", "integrity": "sha512-a", "dev": true}}}`
	current := map[string]string{
		"package-lock.json":               lock,
		"node_modules/.package-lock.json": installed,
		"node_modules/a/package.json":     `{"name": "a"}`,
	}
	with := func(name, content string) map[string]string {
		tree := maps.Clone(current)
		if content == "" {
			delete(tree, name)
		} else {
			tree[name] = content
		}
		return tree
	}
	for _, tt := range []struct {
		name string
		tree map[string]string
		want bool
	}{
		{"what the lockfile says is installed", current, true},
		{"nothing installed", with("node_modules/.package-lock.json", ""), false},
		{"no lockfile", with("package-lock.json", ""), false},
		{"another version installed", with("node_modules/.package-lock.json",
			`{"lockfileVersion": 3, "packages": {"node_modules/a": {"version": "0.9.0", "integrity": "sha512-o", "dev": true}}}`), false},
		{"a package's folder deleted since", with("node_modules/a/package.json", ""), false},
		{"a lockfile npm would refuse", with("package-lock.json", "{"), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := nodeModulesCurrent(writeTree(t, tt.tree)); got != tt.want {
				t.Errorf("nodeModulesCurrent = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestTSGenerateCommand(t *testing.T) {
	t.Parallel()
	// Without node in PATH the template's script is left to npm too,
	// whose error says what is missing.
	withNode := []string{"node", "clients/ts/scripts/generate.mjs"}
	if _, err := exec.LookPath("node"); err != nil {
		withNode = tsGenerate
	}
	for _, tt := range []struct {
		name, pkg string
		want      []string
	}{
		{"the template's script runs with node", `{"scripts": {"generate": "node scripts/generate.mjs"}}`, withNode},
		{"a script of one's own runs with npm", `{"scripts": {"generate": "node scripts/generate.mjs && prettier -w src"}}`, tsGenerate},
		{"no script leaves it to npm to say so", `{}`, tsGenerate},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			root := writeTree(t, map[string]string{"clients/ts/package.json": tt.pkg})
			if got := tsGenerateCommand(root); !slices.Equal(got, tt.want) {
				t.Errorf("tsGenerateCommand = %q, want %q", got, tt.want)
			}
		})
	}
}
