package workflow

import (
	"strings"
	"testing"

	"github.com/asapjs/fiber-template/internal/testkit"
)

// TestDependenciesPointOneWay checks the import rules the architecture
// rests on, with go list: models and the database layer are plain Bun, and
// the platform never reaches into the example service.
func TestDependenciesPointOneWay(t *testing.T) {
	t.Parallel()
	const module = "github.com/asapjs/fiber-template/"
	cases := []struct {
		name      string
		pkgs      []string
		forbidden []string
	}{
		{"the database layer and the models never pull in Fiber or the router",
			[]string{"./platform/database", "./app/models"},
			[]string{"github.com/gofiber/", module + "platform/router"}},
		{"the platform never imports the example service",
			[]string{"./platform/..."},
			[]string{module + "app"}},
		{"the example's accounts and sessions know no HTTP: the controllers speak it",
			[]string{"./app/accounts", "./app/sessions"},
			[]string{"github.com/gofiber/", module + "platform/router", module + "app/controllers"}},
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
			out := testkit.Go(t, testkit.RepoRoot(t), nil, append([]string{"list", "-deps"}, tc.pkgs...)...)
			for _, dep := range strings.Fields(out) {
				for _, bad := range tc.forbidden {
					if dep == bad || strings.HasPrefix(dep, bad+"/") || (strings.HasSuffix(bad, "/") && strings.HasPrefix(dep, bad)) {
						t.Errorf("%v depend on %s", tc.pkgs, dep)
					}
				}
			}
		})
	}
}
