package library

import (
	"os"
	"path/filepath"
	"testing"
)

// wantStatusSource is the addition that makes v1.1.0 of the platform: a
// new servicetest helper, a compatible change a service's test can use.
const wantStatusSource = `package servicetest

import "testing"

// WantStatus fails t unless res has the status want.
func WantStatus(t testing.TB, res Response, want int) {
	t.Helper()
	if res.Status != want {
		t.Fatalf("status %d, want %d; body %s", res.Status, want, res.Body)
	}
}
`

// additionTestDir is the package, slash-separated and relative to the
// service's root, of the service's test of the addition.
const additionTestDir = "tests/upgrade"

// additionTestSource is the service's test of the addition: it compiles
// only against a platform that has servicetest.WantStatus.
const additionTestSource = `package upgrade

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/servicetest"
)

func TestWantStatus(t *testing.T) {
	app := fiber.New()
	app.Get("/gadgets", func(c *fiber.Ctx) error { return c.SendStatus(http.StatusNoContent) })
	servicetest.WantStatus(t, servicetest.Do(t, app, httptest.NewRequest(http.MethodGet, "/gadgets", nil)), http.StatusNoContent)
}
`

// platformWithAddition copies the platform module at dir into a temporary
// directory of t, adds wantStatusSource to its servicetest package, and
// returns the copy.
func platformWithAddition(t *testing.T, dir string) string {
	t.Helper()
	next := filepath.Join(t.TempDir(), "platform")
	if err := os.CopyFS(next, os.DirFS(dir)); err != nil {
		t.Fatalf("copy the platform: %v", err)
	}
	writeServiceFile(t, filepath.Join(next, "servicetest", "status.go"), wantStatusSource)
	return next
}

// writeAdditionTest writes the test of the addition into the service at
// dir.
func writeAdditionTest(t *testing.T, dir string) {
	t.Helper()
	pkg := filepath.Join(dir, filepath.FromSlash(additionTestDir))
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	writeServiceFile(t, filepath.Join(pkg, "status_test.go"), additionTestSource)
}

// writeServiceFile writes text to path.
func writeServiceFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
