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

// wantFiles fails t for every file of want that got does not hold as
// want says.
func wantFiles(t *testing.T, got, want map[string]string) {
	t.Helper()
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s:\n%s\nwant:\n%s", name, got[name], w)
		}
	}
}

// renamed returns the tree after rename to path with opts, failing t on
// an error.
func renamed(t *testing.T, files map[string]string, path string, opts renameOptions) (string, map[string]string) {
	t.Helper()
	root := writeTree(t, files)
	if err := rename(root, path, opts, io.Discard); err != nil {
		t.Fatal(err)
	}
	return root, readTree(t, root)
}

// serveGo and appGo are the files that hold the sites rename sets: the
// docs title and description, the token issuer and audience.
const (
	serveGo = "package main\n\nimport \"example.com/svc/platform/router\"\n\nvar _ = router.APIDocs{\n" +
		"\tName:        \"Shop API\",\n\tVersion:     \"1.0.0\",\n\tDescription: \"Shop API: users with login, CRUD and paging.\",\n}\n"
	appGo = "package app\n\nconst (\n\t// DefaultIssuer is the iss claim.\n\tDefaultIssuer = \"shop\"\n" +
		"\t// DefaultAudience is the aud claim.\n\tDefaultAudience = \"shop-api\"\n)\n"
)

// projectTree is a small repository, named shop, that names its module and
// its project the ways the real one does.
var projectTree = map[string]string{
	"go.mod":      "module example.com/old/shop\n\ngo 1.26.0\n\nrequire golang.org/x/mod v0.41.0\n",
	"go.tool.mod": "// Tools.\n\nmodule example.com/old/shop/tools\n\ngo 1.26.0\n",
	"bench/huma/go.mod": "module example.com/old/shop/bench/huma\n\ngo 1.26.0\n\n" +
		"require example.com/old/shop v0.0.0\n\nreplace example.com/old/shop => ../..\n",
	"app/app.go": "package app\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/old/shop/platform/paging\"\n" +
		"\t\"example.com/old/shop/platform/zeta\"\n\t\"github.com/zz/other\"\n)\n\n" +
		"// See example.com/old/shop/platform/paging.\nvar _ = fmt.Sprint(paging.X, zeta.Y, other.Z, \"example.com/old/shop/app.T\", \"a shop table\")\n",
	"Taskfile.yml":                           "vars:\n  IMAGE: shop\n  OTHER: shops\n",
	"Dockerfile":                             "LABEL org.opencontainers.image.title=shop\n",
	"docker-compose.yml":                     "name: shop\n",
	"deploy/kubernetes/base/deployment.yaml": "image: shop\nlabel: registry.example.com/shop:v1\nsecret: shop-jwt\n",
	"README.md":                              "# shop\n\nImport example.com/old/shop/platform/router. The shop sells.\n",
	"docs/notes.txt":                         "shop stays here\n",
	".git/config":                            "url = example.com/old/shop\n",
	"node_modules/x.go":                      "package x // example.com/old/shop\n",
	"data/app.go":                            "package data // example.com/old/shop\n",
	"app/data/data.go":                       "package data // example.com/old/shop\n",
}

func TestRename(t *testing.T) {
	t.Parallel()
	root, got := renamed(t, projectTree, "github.com/acme/orders", renameOptions{})
	wantFiles(t, got, map[string]string{
		"go.mod":      "module github.com/acme/orders\n\ngo 1.26.0\n\nrequire golang.org/x/mod v0.41.0\n",
		"go.tool.mod": "// Tools.\n\nmodule github.com/acme/orders/tools\n\ngo 1.26.0\n",
		"bench/huma/go.mod": "module github.com/acme/orders/bench/huma\n\ngo 1.26.0\n\n" +
			"require github.com/acme/orders v0.0.0\n\nreplace github.com/acme/orders => ../..\n",
		// The imports are sorted again: github.com/acme sorts before
		// github.com/zz in the same group. A project name in a Go string
		// ("a shop table") is left alone: it may be a table's.
		"app/app.go": "package app\n\nimport (\n\t\"fmt\"\n\n\t\"github.com/acme/orders/platform/paging\"\n" +
			"\t\"github.com/acme/orders/platform/zeta\"\n\t\"github.com/zz/other\"\n)\n\n" +
			"// See github.com/acme/orders/platform/paging.\nvar _ = fmt.Sprint(paging.X, zeta.Y, other.Z, \"github.com/acme/orders/app.T\", \"a shop table\")\n",
		"Taskfile.yml":                           "vars:\n  IMAGE: orders\n  OTHER: shops\n",
		"Dockerfile":                             "LABEL org.opencontainers.image.title=orders\n",
		"docker-compose.yml":                     "name: orders\n",
		"deploy/kubernetes/base/deployment.yaml": "image: orders\nlabel: registry.example.com/orders:v1\nsecret: orders-jwt\n",
		"README.md":                              "# orders\n\nImport github.com/acme/orders/platform/router. The shop sells.\n",
		// Files outside the named ones, and the skipped directories, keep
		// the old names.
		"docs/notes.txt":    projectTree["docs/notes.txt"],
		".git/config":       projectTree[".git/config"],
		"node_modules/x.go": projectTree["node_modules/x.go"],
		"data/app.go":       projectTree["data/app.go"],
		// Below the root, data is a package like any other.
		"app/data/data.go": "package data // github.com/acme/orders\n",
	})

	t.Run("a second run with the same path changes nothing", func(t *testing.T) {
		var out strings.Builder
		if err := rename(root, "github.com/acme/orders", renameOptions{}, &out); err != nil {
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

// templateTree is a small repository of the template itself: its module
// is upstreamModule, and it names the template the ways the real one does.
var templateTree = map[string]string{
	"go.mod": "module " + upstreamModule + "\n\ngo 1.26.0\n",
	"README.md": "# fiber-template\n\nA starter.\n\n```sh\ngit clone " + upstreamURL + ".git orders && cd orders\n" +
		"go run ./cmd/starter rename github.com/acme/orders\n```\n\nImport " + upstreamModule + "/platform/router.\n\n" +
		"## Two commands\n\n```sh\ngo run ./cmd/api   # serves\ngo test ./...      # tests\n```\n\nBoth need Go.\n",
	"Taskfile.yml": "vars:\n  IMAGE: fiber-template\n",
	"app/app.go": "package app\n\nconst (\n\t// DefaultIssuer is the iss claim.\n\tDefaultIssuer = \"fiber-template\"\n" +
		"\t// DefaultAudience is the aud claim.\n\tDefaultAudience = \"fiber-template-api\"\n)\n",
	"cmd/api/serve.go": "package main\n\nimport \"" + upstreamModule + "/platform/router\"\n\nvar _ = router.APIDocs{\n" +
		"\tName:        \"Fiber template API\",\n\tVersion:     \"1.0.0\",\n" +
		"\tDescription: \"Example service of the Fiber template: users with login, CRUD and paging.\",\n}\n",
	"platform/paging/cursor.go": "package paging\n\n// The label names fiber-template.\nconst cursorLabel = \"fiber-template paging cursor v1\"\n",
	"tests/bombs_test.go":       "package tests\n\nconst prefix = \"fiber-template-bombs-\"\n",
	"docs/notes.txt":            "fiber-template, from " + upstreamURL + "\nfiber-templates stay\n",
	// The starter's own files keep naming the template, imports aside.
	"cmd/starter/main.go": "package main\n\nimport \"" + upstreamModule + "/platform/x\"\n\n" +
		"const usage = \"fiber-template: rename " + upstreamModule + "\"\n\nvar _ = x.Y\n",
	"cmd/starter/templates/a.go.tmpl": "// fiber-template " + upstreamModule + "\n",
}

func TestRenameSaysHowManyFiles(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		verbose bool
		lines   int // how many lines name a file rewritten
	}{
		{"a summary by default", false, 0},
		{"every file with -v", true, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			root := writeTree(t, projectTree)
			var out strings.Builder
			if err := rename(root, "github.com/acme/orders", renameOptions{Verbose: tt.verbose}, &out); err != nil {
				t.Fatal(err)
			}
			if want := "renamed example.com/old/shop to github.com/acme/orders in 10 files;"; !strings.Contains(out.String(), want) {
				t.Errorf("rename said:\n%s\nwant %q", out.String(), want)
			}
			if n := strings.Count(out.String(), "rewrote "); n != tt.lines {
				t.Errorf("rename said:\n%s\nwith %d lines naming a file, want %d", out.String(), n, tt.lines)
			}
		})
	}
}

func TestRenameOfTheTemplate(t *testing.T) {
	t.Parallel()
	root, got := renamed(t, templateTree, "github.com/acme/orders", renameOptions{})
	wantFiles(t, got, map[string]string{
		"go.mod": "module github.com/acme/orders\n\ngo 1.26.0\n",
		// The service gets a README of its own: its name and module,
		// the template's two commands, and where the template's docs are;
		// the template's prose and clone line are gone.
		"README.md": "# orders\n\nThe Go module `github.com/acme/orders`: an HTTP service on Fiber v2 and Bun, made with the\n" +
			"[service template](" + upstreamURL + ") it started from.\n\n" +
			"## Two commands\n\n```sh\ngo run ./cmd/api   # serves\ngo test ./...      # tests\n```\n\n" +
			"## Docs\n\n[docs/](docs/) holds the template's guides as they were when this service was made:\n" +
			"configuration, endpoints, testing, the starter (`go run ./cmd/starter resource …`) and the rest.\n" +
			"The newest are in [the template's docs](" + upstreamURL + "/tree/main/docs).\n",
		"Taskfile.yml": "vars:\n  IMAGE: orders\n",
		"app/app.go": "package app\n\nconst (\n\t// DefaultIssuer is the iss claim.\n\tDefaultIssuer = \"orders\"\n" +
			"\t// DefaultAudience is the aud claim.\n\tDefaultAudience = \"orders-api\"\n)\n",
		"cmd/api/serve.go": "package main\n\nimport \"github.com/acme/orders/platform/router\"\n\nvar _ = router.APIDocs{\n" +
			"\tName:        \"Orders API\",\n\tVersion:     \"1.0.0\",\n" +
			"\tDescription: \"Orders API: users with login, CRUD and paging.\",\n}\n",
		// The template's name is replaced wherever it is a word, in Go
		// strings and comments too.
		"platform/paging/cursor.go": "package paging\n\n// The label names orders.\nconst cursorLabel = \"orders paging cursor v1\"\n",
		"tests/bombs_test.go":       "package tests\n\nconst prefix = \"orders-bombs-\"\n",
		"docs/notes.txt":            templateTree["docs/notes.txt"],
		"cmd/starter/main.go": "package main\n\nimport \"github.com/acme/orders/platform/x\"\n\n" +
			"const usage = \"fiber-template: rename " + upstreamModule + "\"\n\nvar _ = x.Y\n",
		"cmd/starter/templates/a.go.tmpl": templateTree["cmd/starter/templates/a.go.tmpl"],
	})

	t.Run("a second run with the same path changes nothing", func(t *testing.T) {
		var out strings.Builder
		if err := rename(root, "github.com/acme/orders", renameOptions{}, &out); err != nil {
			t.Fatal(err)
		}
		if again := readTree(t, root); !maps.Equal(again, got) {
			t.Error("the second run changed files")
		}
	})
}

func TestRenameNamesTheService(t *testing.T) {
	t.Parallel()
	tree := maps.Clone(projectTree)
	tree["cmd/api/serve.go"] = serveGo
	tree["app/app.go"] = appGo
	tests := []struct {
		name                      string
		path                      string
		opts                      renameOptions
		title, description        string
		issuer, audience          string
		unchangedServe, unchanged bool
	}{
		{name: "derived from the new module's last element", path: "github.com/acme/order-books",
			title: "Order Books API", description: "Order Books API: users with login, CRUD and paging.", issuer: "order-books", audience: "order-books-api"},
		{name: "a name ending in api gets no second API", path: "github.com/acme/billing-api",
			title: "Billing API", description: "Billing API: users with login, CRUD and paging.", issuer: "billing-api", audience: "billing-api"},
		{name: "as given", path: "github.com/acme/orders", opts: renameOptions{Title: "Acme Orders", Issuer: "https://auth.acme.test", Audience: "orders"},
			title: "Acme Orders", description: "Acme Orders: users with login, CRUD and paging.", issuer: "https://auth.acme.test", audience: "orders"},
		{name: "the title alone, the module unchanged", path: "example.com/old/shop", opts: renameOptions{Title: "Shop"},
			title: "Shop", description: "Shop: users with login, CRUD and paging.", unchanged: true},
		{name: "the issuer alone, the module unchanged", path: "example.com/old/shop", opts: renameOptions{Issuer: "shop-auth"},
			issuer: "shop-auth", unchangedServe: true, unchanged: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, got := renamed(t, tree, tt.path, tt.opts)
			if tt.title != "" && !strings.Contains(got["cmd/api/serve.go"], "Name:        \""+tt.title+"\",") {
				t.Errorf("the docs title is not %q:\n%s", tt.title, got["cmd/api/serve.go"])
			}
			if tt.description != "" && !strings.Contains(got["cmd/api/serve.go"], "Description: \""+tt.description+"\",") {
				t.Errorf("the docs description is not %q:\n%s", tt.description, got["cmd/api/serve.go"])
			}
			if tt.unchangedServe && got["cmd/api/serve.go"] != serveGo {
				t.Errorf("cmd/api/serve.go changed:\n%s", got["cmd/api/serve.go"])
			}
			if tt.issuer != "" && !strings.Contains(got["app/app.go"], "DefaultIssuer = \""+tt.issuer+"\"") {
				t.Errorf("the issuer is not %q:\n%s", tt.issuer, got["app/app.go"])
			}
			if tt.audience != "" && !strings.Contains(got["app/app.go"], "DefaultAudience = \""+tt.audience+"\"") {
				t.Errorf("the audience is not %q:\n%s", tt.audience, got["app/app.go"])
			}
			if tt.unchanged && got["go.mod"] != tree["go.mod"] {
				t.Errorf("go.mod changed:\n%s", got["go.mod"])
			}
		})
	}

	t.Run("a site not found is a note when derived", func(t *testing.T) {
		t.Parallel()
		root := writeTree(t, projectTree)
		var out strings.Builder
		if err := rename(root, "github.com/acme/orders", renameOptions{}, &out); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), "note: found no docs title (router.APIDocs Name) in cmd/api/serve.go") {
			t.Errorf("output %q has no note of the sites it did not find", out.String())
		}
	})
	t.Run("a site not found is an error when given, and nothing is written", func(t *testing.T) {
		t.Parallel()
		root := writeTree(t, projectTree)
		err := rename(root, "github.com/acme/orders", renameOptions{Title: "Orders"}, io.Discard)
		if err == nil || !strings.Contains(err.Error(), "found no docs title") {
			t.Fatalf("error %v, want one saying the docs title was not found", err)
		}
		if got := readTree(t, root); !maps.Equal(got, projectTree) {
			t.Error("a refused rename changed files")
		}
	})
}

func TestRenameRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, path string
		opts       renameOptions
		saying     string
	}{
		{"an empty path", "", renameOptions{}, "is not a valid module path"},
		{"a path of one element", "orders", renameOptions{}, "is not a valid module path"},
		{"a path with a space", "github.com/acme/my orders", renameOptions{}, "is not a valid module path"},
		{"a path ending in a slash", "github.com/acme/orders/", renameOptions{}, "is not a valid module path"},
		{"a path starting with a dash", "-x.com/y", renameOptions{}, "is not a valid module path"},
		{"a path with a NUL", "github.com/acme/ORDERS\x00", renameOptions{}, "is not a valid module path"},
		{"a path that makes no project name", "github.com/acme/__", renameOptions{}, "makes no project name"},
		{"a blank title", "github.com/acme/orders", renameOptions{Title: "  "}, "--title"},
		{"a title on two lines", "github.com/acme/orders", renameOptions{Title: "Orders\nAPI"}, "--title"},
		{"an issuer with a space", "github.com/acme/orders", renameOptions{Issuer: "acme orders"}, "--issuer"},
		{"an audience with a tab", "github.com/acme/orders", renameOptions{Audience: "orders\tapi"}, "--audience"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			root := writeTree(t, projectTree)
			err := rename(root, tt.path, tt.opts, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.saying) {
				t.Fatalf("rename %q: error %v, want one saying %q", tt.path, err, tt.saying)
			}
			if got := readTree(t, root); !maps.Equal(got, projectTree) {
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

func TestTitleOf(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, want string }{
		{"orders", "Orders API"},
		{"order-books", "Order Books API"},
		{"billing-api", "Billing API"},
		{"http-gateway", "HTTP Gateway API"},
	}
	for _, tt := range tests {
		if got := titleOf(tt.name); got != tt.want {
			t.Errorf("titleOf(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestRenameWritesTheServiceAReadme(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, readme, commands string
	}{
		{"the template's two commands are kept", templateTree["README.md"],
			"## Two commands\n\n```sh\ngo run ./cmd/api   # serves\ngo test ./...      # tests\n```\n"},
		{"without them in the template's README, the plain two", "# fiber-template\n\nA starter.\n\n## Two commands\n\nRun it.\n\n## More\n\n```sh\nmake\n```\n",
			"## Two commands\n\n```sh\ngo run ./cmd/api\ngo test ./...\n```\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tree := maps.Clone(templateTree)
			tree["README.md"] = tt.readme
			tree["docs/guide.md"] = "See [the start](../README.md#start-a-new-service) of fiber-template, [the README](../README.md).\n"
			_, got := renamed(t, tree, "github.com/acme/orders", renameOptions{})
			// A section of the template's README is the template's.
			if want := "See [the start](" + upstreamURL + "#start-a-new-service) of orders, [the README](../README.md).\n"; got["docs/guide.md"] != want {
				t.Errorf("docs/guide.md:\n%s\nwant:\n%s", got["docs/guide.md"], want)
			}
			readme := got["README.md"]
			for _, want := range []string{"# orders\n", "`github.com/acme/orders`", tt.commands, "[docs/](docs/)", upstreamURL + "/tree/main/docs"} {
				if !strings.Contains(readme, want) {
					t.Errorf("README.md:\n%s\nwant %q in it", readme, want)
				}
			}
			for _, gone := range []string{"A starter.", "git clone", "make"} {
				if strings.Contains(readme, gone) {
					t.Errorf("README.md:\n%s\nstill has the template's %q", readme, gone)
				}
			}
		})
	}
}
