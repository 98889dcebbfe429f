package workflow

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asapjs/fiber-template/internal/testkit"
)

// TestDependenciesPointOneWay checks the import rules the architecture
// rests on, with go list: models and the database layer are plain Bun, and
// the platform never reaches into the example service.
func TestDependenciesPointOneWay(t *testing.T) {
	t.Parallel()
	// The platform's import path: its own module's, which a service in
	// vendored mode renames and one in library mode keeps.
	const module, platform = "github.com/asapjs/fiber-template/", "github.com/asapjs/fiber-template/platform"
	cases := []struct {
		name      string
		pkgs      []string
		forbidden []string
	}{
		{"the database layer and the models never pull in Fiber or the router",
			[]string{"./platform/database", "./app/models"},
			[]string{"github.com/gofiber/", platform + "/router"}},
		{"the platform never imports the example service",
			[]string{"./platform/..."},
			[]string{module + "app"}},
		{"the example's accounts and sessions know no HTTP: the controllers speak it",
			[]string{"./app/accounts", "./app/sessions"},
			[]string{"github.com/gofiber/", platform + "/router", module + "app/controllers"}},
		{"no product package carries a browser driver or a test harness",
			[]string{"./cmd/api", "./platform/..."},
			[]string{"github.com/chromedp/", "github.com/testcontainers/", module + "internal/browsertest"}},
		{"the spec generator does not depend on Fiber",
			[]string{"./platform/openapi", "./platform/problem", "./platform/paging"},
			[]string{"github.com/gofiber/"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for _, dep := range listDeps(t, tc.pkgs) {
				for _, bad := range tc.forbidden {
					if dep == bad || strings.HasPrefix(dep, bad+"/") || (strings.HasSuffix(bad, "/") && strings.HasPrefix(dep, bad)) {
						t.Errorf("%v depend on %s", tc.pkgs, dep)
					}
				}
			}
		})
	}
}

// listDeps lists the dependencies of pkgs, ./dir patterns from the root,
// with go list -deps in the module that holds each: platform/ is a module
// of its own. A service that requires the platform as a library has no
// platform/: the library's own checks cover its packages, and they are
// left out here.
func listDeps(t *testing.T, pkgs []string) []string {
	t.Helper()
	root := testkit.RepoRoot(t)
	byModule := map[string][]string{}
	for _, p := range pkgs {
		if rest, ok := strings.CutPrefix(p, "./platform/"); ok {
			byModule["platform"] = append(byModule["platform"], "./"+rest)
		} else {
			byModule["."] = append(byModule["."], p)
		}
	}
	var deps []string
	for dir, patterns := range byModule {
		if _, err := os.Stat(filepath.Join(root, dir, "go.mod")); err != nil {
			t.Logf("%v: %s has no module here (the platform is a library): left out", patterns, dir)
			continue
		}
		out := testkit.Go(t, filepath.Join(root, dir), nil, append([]string{"list", "-deps"}, patterns...)...)
		deps = append(deps, strings.Fields(out)...)
	}
	return deps
}
