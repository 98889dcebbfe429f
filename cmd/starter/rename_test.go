package main

import (
	"io"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTree writes files (path → content) below a new temporary directory
// and returns it.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// readTree reads every file below root, by slash path.
func readTree(t *testing.T, root string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		files[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// templateTree is a small repository naming its module the ways the real
// one does. Its module path is not the real one, which a rename of the
// real repository rewrites, this file included.
var templateTree = map[string]string{
	"go.mod":      "module example.com/old/fiber-template\n\ngo 1.26.0\n\nrequire golang.org/x/mod v0.41.0\n",
	"go.tool.mod": "// Tools.\n\nmodule example.com/old/fiber-template/tools\n\ngo 1.26.0\n",
	"bench/huma/go.mod": "module example.com/old/fiber-template/bench/huma\n\ngo 1.26.0\n\n" +
		"require example.com/old/fiber-template v0.0.0\n\nreplace example.com/old/fiber-template => ../..\n",
	"app/app.go": "package app\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/old/fiber-template/platform/paging\"\n" +
		"\t\"example.com/old/fiber-template/platform/zeta\"\n\t\"github.com/zz/other\"\n)\n\n" +
		"// See example.com/old/fiber-template/platform/paging.\nvar _ = fmt.Sprint(paging.X, zeta.Y, other.Z, \"example.com/old/fiber-template/app.T\")\n",
	"Taskfile.yml":                           "vars:\n  IMAGE: fiber-template\n  OTHER: fiber-templates\n",
	"Dockerfile":                             "LABEL org.opencontainers.image.title=fiber-template\n",
	"docker-compose.yml":                     "name: fiber-template\n",
	"deploy/kubernetes/base/deployment.yaml": "image: fiber-template\nlabel: registry.example.com/fiber-template:v1\n",
	"README.md":                              "# fiber-template\n\nImport example.com/old/fiber-template/platform/router.\n",
	"docs/notes.txt":                         "fiber-template stays here\n",
	".git/config":                            "url = example.com/old/fiber-template\n",
	"node_modules/x.go":                      "package x // example.com/old/fiber-template\n",
	"data/app.go":                            "package data // example.com/old/fiber-template\n",
	"app/data/data.go":                       "package data // example.com/old/fiber-template\n",
}

func TestRename(t *testing.T) {
	t.Parallel()
	root := writeTree(t, templateTree)
	if err := rename(root, "github.com/acme/orders", io.Discard); err != nil {
		t.Fatal(err)
	}
	got := readTree(t, root)
	want := map[string]string{
		"go.mod":      "module github.com/acme/orders\n\ngo 1.26.0\n\nrequire golang.org/x/mod v0.41.0\n",
		"go.tool.mod": "// Tools.\n\nmodule github.com/acme/orders/tools\n\ngo 1.26.0\n",
		"bench/huma/go.mod": "module github.com/acme/orders/bench/huma\n\ngo 1.26.0\n\n" +
			"require github.com/acme/orders v0.0.0\n\nreplace github.com/acme/orders => ../..\n",
		// The imports are sorted again: github.com/acme sorts before
		// github.com/zz in the same group.
		"app/app.go": "package app\n\nimport (\n\t\"fmt\"\n\n\t\"github.com/acme/orders/platform/paging\"\n" +
			"\t\"github.com/acme/orders/platform/zeta\"\n\t\"github.com/zz/other\"\n)\n\n" +
			"// See github.com/acme/orders/platform/paging.\nvar _ = fmt.Sprint(paging.X, zeta.Y, other.Z, \"github.com/acme/orders/app.T\")\n",
		"Taskfile.yml":                           "vars:\n  IMAGE: orders\n  OTHER: fiber-templates\n",
		"Dockerfile":                             "LABEL org.opencontainers.image.title=orders\n",
		"docker-compose.yml":                     "name: orders\n",
		"deploy/kubernetes/base/deployment.yaml": "image: orders\nlabel: registry.example.com/orders:v1\n",
		"README.md":                              "# orders\n\nImport github.com/acme/orders/platform/router.\n",
		// Files outside the named ones, and the skipped directories, keep
		// the old names.
		"docs/notes.txt":    templateTree["docs/notes.txt"],
		".git/config":       templateTree[".git/config"],
		"node_modules/x.go": templateTree["node_modules/x.go"],
		"data/app.go":       templateTree["data/app.go"],
		// Below the root, data is a package like any other.
		"app/data/data.go": "package data // github.com/acme/orders\n",
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s:\n%s\nwant:\n%s", name, got[name], w)
		}
	}

	t.Run("a second run with the same path changes nothing", func(t *testing.T) {
		var out strings.Builder
		if err := rename(root, "github.com/acme/orders", &out); err != nil {
			t.Fatal(err)
		}
		if again := readTree(t, root); !maps.Equal(again, got) {
			t.Error("the second run changed files")
		}
		if !strings.Contains(out.String(), "nothing to change") {
			t.Errorf("output %q does not say there was nothing to change", out.String())
		}
	})
}

func TestRenameRefusesAnInvalidModulePath(t *testing.T) {
	t.Parallel()
	for _, path := range []string{"", "orders", "github.com/acme/my orders", "github.com/acme/orders/", "-x.com/y", "github.com/acme/ORDERS\x00"} {
		t.Run(path, func(t *testing.T) {
			root := writeTree(t, templateTree)
			err := rename(root, path, io.Discard)
			if err == nil || !strings.Contains(err.Error(), "is not a valid module path") {
				t.Fatalf("rename %q: error %v, want one saying it is not a valid module path", path, err)
			}
			if got := readTree(t, root); !maps.Equal(got, templateTree) {
				t.Error("a refused rename changed files")
			}
		})
	}
}

func TestProjectName(t *testing.T) {
	t.Parallel()
	tests := []struct{ path, want string }{
		{"github.com/acme/orders", "orders"},
		{"github.com/acme/orders/v2", "orders"},
		{"github.com/Acme/Order_Books", "order-books"},
		{"example.com/x/fiber-template", "fiber-template"},
		{"gopkg.in/yaml.v3", "yaml"},
	}
	for _, tt := range tests {
		if got := projectName(tt.path); got != tt.want {
			t.Errorf("projectName(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
}
