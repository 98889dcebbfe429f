package requestid_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/middleware/requestid"
)

// idOf serves one request with incoming as its X-Request-ID (none when
// empty) and returns the id of the answer and the one the handler saw.
func idOf(t *testing.T, app *fiber.App, incoming string) (answered, seen string) {
	t.Helper()
	req := httptest.NewRequest("GET", "/", nil)
	if incoming != "" {
		req.Header.Set(fiber.HeaderXRequestID, incoming)
	}
	res, err := app.Test(req)
	if err != nil {
		t.Fatal(err)
	}
	return res.Header.Get(fiber.HeaderXRequestID), res.Header.Get("X-Seen")
}

func newApp(t *testing.T, cfg ...requestid.Config) *fiber.App {
	t.Helper()
	mw, err := requestid.New(cfg...)
	if err != nil {
		t.Fatal(err)
	}
	app := fiber.New()
	app.Use(mw)
	app.Get("/", func(c *fiber.Ctx) error {
		c.Set("X-Seen", requestid.From(c))
		return nil
	})
	return app
}

func TestRequestID(t *testing.T) {
	t.Parallel()
	app := newApp(t)
	tests := []struct {
		name, incoming string
		kept           bool
	}{
		{"a safe id is kept", "client-123_abc.def:9", true},
		{"the longest safe id is kept", strings.Repeat("a", requestid.MaxLength), true},
		{"a longer one is replaced", strings.Repeat("a", requestid.MaxLength+1), false},
		{"spaces are replaced", "a b", false},
		{"a line break is replaced", "a\tb", false},
		{"none gets one", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			answered, seen := idOf(t, app, tc.incoming)
			if answered == "" || answered != seen {
				t.Fatalf("answered %q, the handler saw %q", answered, seen)
			}
			if (answered == tc.incoming) != tc.kept {
				t.Fatalf("incoming %q answered %q", tc.incoming, answered)
			}
			if !requestid.Valid([]byte(answered)) {
				t.Fatalf("answered an unsafe id %q", answered)
			}
		})
	}
	t.Run("made ids are unique", func(t *testing.T) {
		a, _ := idOf(t, app, "")
		b, _ := idOf(t, app, "")
		if a == b {
			t.Fatalf("two requests got %q", a)
		}
	})
	t.Run("a configured generator makes them", func(t *testing.T) {
		app := newApp(t, requestid.Config{Generator: func(dst []byte) []byte { return append(dst, "fixed"...) }})
		if got, _ := idOf(t, app, ""); got != "fixed" {
			t.Fatalf("id %q", got)
		}
	})
}
