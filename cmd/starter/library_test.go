package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/asapjs/fiber-template/internal/changelog"
)

// libraryTree is a small copy of the template, named shop, with what
// library mode changes: a platform/ of its own module that the root and a
// nested module replace, the package that runs its tests, and the tasks,
// CI steps, build steps and tests that run or read platform/.
var libraryTree = map[string]string{
	"go.mod": "module github.com/asapjs/fiber-template\n\ngo 1.26.0\n\n" +
		"require github.com/asapjs/fiber-template/platform v0.0.0\n\nreplace github.com/asapjs/fiber-template/platform => ./platform\n",
	"bench/go.mod": "module github.com/asapjs/fiber-template/bench\n\ngo 1.26.0\n\nrequire (\n" +
		"\tgithub.com/asapjs/fiber-template v0.0.0\n\tgithub.com/asapjs/fiber-template/platform v0.0.0 // indirect\n)\n\n" +
		"replace github.com/asapjs/fiber-template => ../\n\nreplace github.com/asapjs/fiber-template/platform => ../platform\n",
	"clients/go/go.mod":          "module github.com/asapjs/fiber-template/clients/go\n\ngo 1.26.0\n",
	"platform/go.mod":            "module github.com/asapjs/fiber-template/platform\n\ngo 1.26.0\n",
	"platform/CHANGELOG.md":      "# Changelog\n\n## Unreleased\n\n## [1.10.0] - 2027-01-01\n\n## [1.9.0]\n\n## [1.0.0]\n",
	"platform/router/r.go":       "package router // github.com/asapjs/fiber-template/platform/router\n",
	"tests/platform/test.go":     "package platform\n",
	"tests/apigate/gate_test.go": "package apigate\n",
	"app/app.go": "package app\n\nimport (\n\t\"github.com/asapjs/fiber-template/app/models\"\n" +
		"\t\"github.com/asapjs/fiber-template/platform/router\"\n)\n\n" +
		"// Routes on github.com/asapjs/fiber-template/platform/router, for fiber-template.\nvar _ = router.X(models.Y)\n",
	"docs/routes.md":    "Import github.com/asapjs/fiber-template/platform/router; see platform/router/router.go.\n",
	"docs/upgrading.md": "Read [the changelog](../platform/CHANGELOG.md).\n",
	// The contract names the template, so the rename writes it before
	// settling writes it again.
	"api/openapi.json": "{\"info\": {\"title\": \"fiber-template API\"}}\n",
	"Taskfile.yml": "tasks:\n  build:\n    cmds:\n      - go build ./...\n\n" +
		"  fuzz:\n    desc: fuzz\n    cmds:\n      - go -C platform test -fuzz F ./paging\n\n" +
		"  mutate:\n    vars:\n      PKGS: '{{.PKGS | default \"./platform/paging ./platform/router ./app/sessions\"}}'\n\n" +
		"  test:race:\n    cmds:\n      - go -C platform test -race ./...\n      - go test -race ./app/...\n\n" +
		"  api:gate:\n    desc: the gate\n    cmds:\n      - go test -run '^TestAPIGate$' ./tests/apigate\n",
	".ci/run": "go test ./...\n\n# The platform's Go API against its last release, by apidiff.\ngo test -count=1 -v -run '^TestAPIGate$' ./tests/apigate\n\n" +
		"go -C platform test -race ./...\ngo test -race ./app/...\n\n" +
		"# The fuzz targets, bounded.\nfor target in a b; do\n  go -C platform test -fuzz \"$1\"\ndone\n\necho done\n",
	"Dockerfile": "# Dependencies first: across builds. The\n# platform is a module of its own that go.mod replaces with ./platform.\n" +
		"COPY go.mod go.sum ./\nCOPY platform/go.mod platform/go.sum ./platform/\nRUN go mod download\n",
	"tests/integration/problems_walk_test.go": "package integration\n\nvar dirs = []string{\"platform\", \"app\", \"cmd\"}\n",
}

func TestRenameInLibraryMode(t *testing.T) {
	t.Parallel()
	root := writeTree(t, libraryTree)
	// A script keeps its execute bits.
	if err := os.Chmod(filepath.Join(root, ".ci", "run"), 0o755); err != nil {
		t.Fatal(err)
	}
	var modules []string
	opts := renameOptions{Library: true, settle: func(_ string, m []string, _ io.Writer) error {
		modules = m
		return nil
	}}
	var b strings.Builder
	if err := rename(root, "example.com/shop", opts, &b); err != nil {
		t.Fatal(err)
	}
	got, out := readTree(t, root), b.String()
	wantFiles(t, got, map[string]string{
		"go.mod": "module example.com/shop\n\ngo 1.26.0\n\nrequire github.com/asapjs/fiber-template/platform v1.10.0\n",
		"bench/go.mod": "module example.com/shop/bench\n\ngo 1.26.0\n\nrequire (\n" +
			"\texample.com/shop v0.0.0\n\tgithub.com/asapjs/fiber-template/platform v1.10.0 // indirect\n)\n\n" +
			"replace example.com/shop => ../\n",
		"clients/go/go.mod": "module example.com/shop/clients/go\n\ngo 1.26.0\n",
		// The service's imports move, the platform's stay the library's, and
		// so does its path in text, template name and all.
		"app/app.go": "package app\n\nimport (\n\t\"example.com/shop/app/models\"\n" +
			"\t\"github.com/asapjs/fiber-template/platform/router\"\n)\n\n" +
			"// Routes on github.com/asapjs/fiber-template/platform/router, for shop.\nvar _ = router.X(models.Y)\n",
		"docs/routes.md": "Import github.com/asapjs/fiber-template/platform/router; see platform/router/router.go.\n",
		// A link to a file of platform/ goes to the template's.
		"docs/upgrading.md": "Read [the changelog](https://github.com/asapjs/fiber-template/blob/main/platform/CHANGELOG.md).\n",
		"Taskfile.yml": "tasks:\n  build:\n    cmds:\n      - go build ./...\n\n" +
			"  mutate:\n    vars:\n      PKGS: '{{.PKGS | default \"./app/sessions\"}}'\n\n" +
			"  test:race:\n    cmds:\n      - go test -race ./app/...\n\n",
		".ci/run":    "go test ./...\n\n\ngo test -race ./app/...\n\n\necho done\n",
		"Dockerfile": "# Dependencies first: across builds.\nCOPY go.mod go.sum ./\nRUN go mod download\n",
		"tests/integration/problems_walk_test.go": "package integration\n\nvar dirs = []string{\"app\", \"cmd\"}\n",
	})
	for name := range got {
		if strings.HasPrefix(name, "platform/") || strings.HasPrefix(name, "tests/platform/") || strings.HasPrefix(name, "tests/apigate/") {
			t.Errorf("%s is there after rename --library", name)
		}
	}
	for _, dir := range libraryDirs {
		if _, err := os.Stat(filepath.Join(root, dir)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("the directory %s is there after rename --library (%v)", dir, err)
		}
	}
	if want := []string{"bench", "."}; !slices.Equal(modules, want) {
		t.Errorf("settled the modules %v, want %v: those that require the platform", modules, want)
	}
	for _, want := range []string{"in library mode", "removed platform, tests/platform and tests/apigate (5 files)", "github.com/asapjs/fiber-template/platform v1.10.0"} {
		if !strings.Contains(out, want) {
			t.Errorf("rename said %q, without %q", out, want)
		}
	}
	if info, err := os.Stat(filepath.Join(root, ".ci", "run")); err != nil {
		t.Error(err)
	} else if info.Mode().Perm() != 0o755 {
		t.Errorf(".ci/run has the mode %v after rename --library, want its own (0755) kept", info.Mode().Perm())
	}

	t.Run("a second run with the same path changes nothing", func(t *testing.T) {
		var b strings.Builder
		opts := renameOptions{Library: true, settle: func(string, []string, io.Writer) error {
			t.Error("a rename that changes nothing settled the modules")
			return nil
		}}
		if err := rename(root, "example.com/shop", opts, &b); err != nil {
			t.Fatal(err)
		}
		if again := readTree(t, root); !maps.Equal(again, got) {
			t.Error("the second run changed files")
		}
		if !strings.Contains(b.String(), "nothing to change") {
			t.Errorf("output %q does not say there was nothing to change", b.String())
		}
	})
}

func TestRenameInLibraryModeOfAVendoredService(t *testing.T) {
	t.Parallel()
	// A service renamed in vendored mode first, whose platform is its own
	// copy: library mode makes it require the library instead.
	tree := map[string]string{
		"go.mod":                "module example.com/old\n\ngo 1.26.0\n\nrequire example.com/old/platform v0.0.0\n\nreplace example.com/old/platform => ./platform\n",
		"platform/go.mod":       "module example.com/old/platform\n\ngo 1.26.0\n",
		"platform/CHANGELOG.md": "## [1.0.0]\n",
		"app/app.go":            "package app\n\nimport \"example.com/old/platform/router\"\n\nvar _ = router.X\n",
	}
	root := writeTree(t, tree)
	opts := renameOptions{Library: true, PlatformVersion: "v1.2.0", settle: func(string, []string, io.Writer) error { return nil }}
	if err := rename(root, "example.com/shop", opts, io.Discard); err != nil {
		t.Fatal(err)
	}
	got := readTree(t, root)
	wantFiles(t, got, map[string]string{
		"go.mod":     "module example.com/shop\n\ngo 1.26.0\n\nrequire github.com/asapjs/fiber-template/platform v1.2.0\n",
		"app/app.go": "package app\n\nimport \"github.com/asapjs/fiber-template/platform/router\"\n\nvar _ = router.X\n",
	})
	if _, ok := got["platform/go.mod"]; ok {
		t.Error("platform/ is there after rename --library")
	}
}

// TestRenameInLibraryModeIsAllOrNothing fails library mode at each of its
// late steps: every file stays as it was.
func TestRenameInLibraryModeIsAllOrNothing(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		tree   map[string]string
		settle func(string, []string, io.Writer) error
		want   string
	}{
		{"go mod tidy fails", libraryTree, func(root string, _ []string, _ io.Writer) error {
			// Settling runs on the renamed tree, and writes what it writes.
			if _, err := os.Stat(filepath.Join(root, "platform", "go.mod")); err == nil {
				t.Error("settling ran with platform/go.mod still there")
			}
			if err := os.WriteFile(filepath.Join(root, "go.sum"), []byte("tidied\n"), 0o644); err != nil {
				t.Error(err)
			}
			return errors.New("could not fetch the platform")
		}, "could not fetch the platform"},
		{"a line to drop is not there", withFile(libraryTree, "Dockerfile", "FROM scratch\n"), nil, "Dockerfile: found no the COPY of platform/go.mod"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root := writeTree(t, tc.tree)
			settle := tc.settle
			if settle == nil {
				settle = func(string, []string, io.Writer) error {
					t.Error("settled a rename that was refused")
					return nil
				}
			}
			err := rename(root, "example.com/shop", renameOptions{Library: true, settle: settle}, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "nothing was changed") {
				t.Fatalf("rename --library: %v, want an error naming %q that says nothing was changed", err, tc.want)
			}
			if got := readTree(t, root); !maps.Equal(got, tc.tree) {
				for name := range got {
					if got[name] != tc.tree[name] {
						t.Errorf("%s changed:\n%s", name, got[name])
					}
				}
				for name := range tc.tree {
					if _, ok := got[name]; !ok {
						t.Errorf("%s is gone", name)
					}
				}
			}
		})
	}
}

// withFile returns tree with the file name holding content.
func withFile(tree map[string]string, name, content string) map[string]string {
	tree = maps.Clone(tree)
	tree[name] = content
	return tree
}

func TestLibraryVersion(t *testing.T) {
	t.Parallel()
	const required = "module example.com/shop\n\nrequire github.com/asapjs/fiber-template/platform v1.3.0\n"
	tests := []struct {
		name  string
		tree  map[string]string
		given string
		want  string // "" for an error
		err   string
	}{
		{"the version given", map[string]string{"platform/CHANGELOG.md": "## [1.0.0]\n"}, "v1.4.2", "v1.4.2", ""},
		{"the version given without its v", nil, "1.4.2", "v1.4.2", ""},
		{"a prerelease given", nil, "v1.5.0-rc.1", "v1.5.0-rc.1", ""},
		{"a version given short", nil, "v1.4", "", "want a version such as v1.0.0"},
		{"a version given that is none", nil, "latest", "", "want a version such as v1.0.0"},
		{"the newest heading, by version not by place", map[string]string{"platform/CHANGELOG.md": "## Unreleased\n\n## [1.9.0]\n\n## [1.10.0] - 2027-01-01\n\n## [1.2.0]\n"}, "", "v1.10.0", ""},
		{"no release yet", map[string]string{"platform/CHANGELOG.md": "# Changelog\n\n## Unreleased\n\n- a change\n"}, "", changelog.FirstRelease, ""},
		{"no changelog: the version go.mod requires", map[string]string{"go.mod": required}, "", "v1.3.0", ""},
		{"no changelog and no requirement", map[string]string{"go.mod": "module example.com/shop\n"}, "", "", "give one with --platform-version"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := libraryVersion(writeTree(t, tc.tree), tc.given)
			if tc.want == "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("libraryVersion: %q, %v; want an error naming %q", got, err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("libraryVersion: %q, %v; want %s", got, err, tc.want)
			}
		})
	}
}

// TestTemplatesImportThePlatformByTheServicesMode generates a resource in
// a service of each mode: its files import the platform by the path the
// service's go.mod gives it.
func TestTemplatesImportThePlatformByTheServicesMode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, goMod, want string
	}{
		{"vendored: the copy replaced by a directory", "module example.com/svc\n\nrequire example.com/svc/platform v0.0.0\n\nreplace example.com/svc/platform => ./platform\n", "example.com/svc/platform"},
		{"the library's path replaced by a directory, as the template has it", "module example.com/svc\n\nrequire github.com/asapjs/fiber-template/platform v0.0.0\n\nreplace github.com/asapjs/fiber-template/platform => ./platform\n", platformModule},
		{"library: the library at a version", "module example.com/svc\n\nrequire github.com/asapjs/fiber-template/platform v1.0.0\n", platformModule},
		{"library replaced by another version", "module example.com/svc\n\nrequire github.com/asapjs/fiber-template/platform v1.0.0\n\nreplace github.com/asapjs/fiber-template/platform => github.com/fork/platform v1.0.1\n", platformModule},
		{"no platform required", "module example.com/svc\n", "example.com/svc/platform"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tree := withFile(serviceTree, "go.mod", tc.goMod)
			tree["app/app.go"] = strings.ReplaceAll(tree["app/app.go"], "example.com/svc/platform", tc.want)
			root := writeTree(t, tree)
			if err := resource(root, "gadgets", []string{"label:string"}, resourceOptions{}, io.Discard); err != nil {
				t.Fatal(err)
			}
			got := readTree(t, root)
			for _, name := range []string{"app/controllers/gadgets.go", "app/repositories/gadgets.go", "app/models/gadget.go", "tests/integration/gadgets_test.go"} {
				if !strings.Contains(got[name], `"`+tc.want+`/`) {
					t.Errorf("%s does not import the platform from %s:\n%s", name, tc.want, got[name])
				}
				if other := otherPlatform(tc.want); strings.Contains(got[name], `"`+other+`/`) {
					t.Errorf("%s imports the platform from %s, want %s", name, other, tc.want)
				}
			}
		})
	}
}

// otherPlatform is the platform's path of the other mode than want's.
func otherPlatform(want string) string {
	if want == platformModule {
		return "example.com/svc/platform"
	}
	return platformModule
}

// TestLibraryEditsFitTheTemplate plans library mode on this repository:
// every edit of libraryEdits finds its text, the platform's copy and
// tests/platform are removed, and every module that replaces the platform
// is settled. A service made in library mode has no platform/ to remove:
// there it skips.
func TestLibraryEditsFitTheTemplate(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	if _, err := os.Stat(filepath.Join(root, "platform", "go.mod")); err != nil {
		t.Skip("plans library mode on the template's platform/, and this repository has none (a service on the platform as a library): skipped by design")
	}
	oldPath, err := modulePath(root)
	if err != nil {
		t.Fatal(err)
	}
	r := renamer{root: root, oldPath: oldPath, newPath: "example.com/shop", library: true, version: changelog.FirstRelease,
		platformRef: platformRefOf(oldPath)}
	p, err := r.libraryChange(nil)
	if err != nil {
		t.Fatalf("libraryChange: %v", err)
	}
	for _, want := range []string{"platform/go.mod", "tests/platform/module_test.go", "tests/apigate/gate_test.go"} {
		if !slices.Contains(p.change.removes, want) {
			t.Errorf("library mode keeps %s", want)
		}
	}
	for _, w := range p.change.writes {
		edited := slices.ContainsFunc(libraryEdits, func(e libraryEdit) bool { return e.file == w.path })
		if edited && (strings.Contains(string(w.data), "-C platform") || strings.Contains(string(w.data), "./platform/")) {
			t.Errorf("%s still runs or copies platform/ after library mode's edits", w.path)
		}
		if strings.HasPrefix(w.path, "docs/") && docsPlatformLink.Match(w.data) {
			t.Errorf("%s still links to a file of platform/", w.path)
		}
	}
}

// TestMarkersHoldInEitherMode: a generated file's hash is the same whether
// it imports the platform as the template's copy, a vendored service's or
// the library, so that remove and field take a resource generated in the
// template and renamed in library mode as unedited.
func TestMarkersHoldInEitherMode(t *testing.T) {
	t.Parallel()
	const body = "package controllers\n\nimport (\n\t\"%s/app/models\"\n\t\"%s/router\"\n)\n"
	template := fmt.Sprintf(body, upstreamModule, platformModule)
	want := bodyHash([]byte(template), upstreamModule)
	for _, tc := range []struct{ name, module, platform string }{
		{"vendored", "example.com/shop", "example.com/shop/platform"},
		{"library", "example.com/shop", platformModule},
	} {
		src := fmt.Sprintf(body, tc.module, tc.platform)
		if got := bodyHash([]byte(src), tc.module); got != want {
			t.Errorf("%s: the hash of a generated file is %s, want the template's %s", tc.name, got, want)
		}
	}
}

func TestTidyProblems(t *testing.T) {
	t.Parallel()
	tests := []struct{ output, want string }{
		{"", ""},
		{"go: downloading example.com/a v1.0.0\ngo: finding module for package example.com/b\n", ""},
		{"go: finding module for package example.com/s/app/x\ngo: example.com/s/bench imports\n\texample.com/s/app/x: no such package\n",
			"go: example.com/s/bench imports\n\texample.com/s/app/x: no such package"},
	}
	for _, tc := range tests {
		if got := tidyProblems([]byte(tc.output)); got != tc.want {
			t.Errorf("tidyProblems(%q) = %q, want %q", tc.output, got, tc.want)
		}
	}
}

// TestFilesBelowLeavesAChangesOwnFilesOut: the files a change applied
// before keeps aside are not a later change's to remove.
func TestFilesBelowLeavesAChangesOwnFilesOut(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{
		"app/accounts/a.go": "package accounts\n", "app/accounts/.a.go.starter-old-123": "package accounts\n",
		"app/accounts/.hidden": "kept\n",
	})
	got, err := filesBelow(root, "app/accounts")
	if want := []string{"app/accounts/.hidden", "app/accounts/a.go"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("filesBelow: %v, %v; want %v", got, err, want)
	}
	if got, err := filesBelow(root, "app/nothing"); err != nil || len(got) != 0 {
		t.Errorf("filesBelow of a missing directory: %v, %v; want nothing", got, err)
	}
}

// TestTheTemplateUsesNoUnreleasedPlatformAPI: rename --library makes a
// service that requires the newest release of the platform, so what it
// keeps (every package outside platform/, and the templates a resource is
// generated from) must not use what the changelog's Unreleased section
// adds: such a service would not compile. Cut a release first.
func TestTheTemplateUsesNoUnreleasedPlatformAPI(t *testing.T) {
	root := filepath.Join("..", "..")
	text, err := os.ReadFile(filepath.Join(root, "platform", "CHANGELOG.md"))
	if errors.Is(err, fs.ErrNotExist) {
		t.Skip("no platform/: a service in library mode, which requires a released platform and compiles only against what it has")
	}
	if err != nil {
		t.Fatal(err)
	}
	unreleased := changelog.UnreleasedAdditions(text)
	if len(unreleased) == 0 {
		return
	}
	for _, use := range platformUses(t, root, unreleased) {
		t.Errorf("%s uses %s, which platform/CHANGELOG.md lists as unreleased: a service made with rename --library, which requires the newest release, would not compile; release the platform (docs/releasing.md)", use.file, use.name)
	}
}
