package secure_test

import (
	"net/http/httptest"
	"testing"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/middleware/secure"
)

func TestSecureHeaders(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		cfg  []secure.Config
		want map[string]string
	}{
		{"the defaults", nil, map[string]string{
			"X-Content-Type-Options":  "nosniff",
			"X-Frame-Options":         "DENY",
			"Content-Security-Policy": "frame-ancestors 'none'",
			"Referrer-Policy":         "no-referrer",
		}},
		{"an empty value leaves its header out", []secure.Config{{ContentTypeOptions: "nosniff"}}, map[string]string{
			"X-Content-Type-Options":  "nosniff",
			"X-Frame-Options":         "",
			"Content-Security-Policy": "",
			"Referrer-Policy":         "",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			app := fiber.New()
			app.Use(secure.New(tc.cfg...))
			// An error answer carries them too: they are set before.
			app.Get("/", func(*fiber.Ctx) error { return fiber.ErrTeapot })
			res, err := app.Test(httptest.NewRequest("GET", "/", nil))
			if err != nil {
				t.Fatal(err)
			}
			for h, want := range tc.want {
				if got := res.Header.Get(h); got != want {
					t.Errorf("%s = %q, want %q", h, got, want)
				}
			}
		})
	}
}
