package accesslog_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http/httptest"
	"testing"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/middleware/accesslog"
)

func TestAccessLogLine(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	app := fiber.New()
	app.Use(accesslog.New(accesslog.Config{
		Logger: slog.New(slog.NewJSONHandler(&logs, nil)),
		Attrs: func(_ *fiber.Ctx, attrs []slog.Attr) []slog.Attr {
			return append(attrs, slog.String("request_id", "r-1"))
		},
	}))
	// Answered below the log, as the router's error middleware does.
	app.Use(func(c *fiber.Ctx) error {
		if err := c.Next(); err != nil {
			return c.Status(fiber.StatusConflict).SendString(err.Error())
		}
		return nil
	})
	app.Get("/things/:id", func(*fiber.Ctx) error { return fiber.NewError(fiber.StatusConflict, "taken") })
	if _, err := app.Test(httptest.NewRequest("GET", "/things/7?x=1", nil)); err != nil {
		t.Fatal(err)
	}
	var line map[string]any
	if err := json.Unmarshal(logs.Bytes(), &line); err != nil {
		t.Fatalf("%v: %s", err, logs.Bytes())
	}
	want := map[string]any{"msg": accesslog.Message, "method": "GET", "path": "/things/7", "status": float64(409), "request_id": "r-1"}
	for k, v := range want {
		if line[k] != v {
			t.Errorf("%s = %v, want %v (line %s)", k, line[k], v, logs.Bytes())
		}
	}
	if ms, ok := line["duration_ms"].(float64); !ok || ms < 0 || ms > 10_000 {
		t.Errorf("duration_ms = %v, want a number of milliseconds", line["duration_ms"])
	}
}
