package accesslog_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

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

// TestLogOutsideTheMiddleware checks the line of a request answered where
// the middleware does not run: the same fields, the status the response
// has, and nothing when Next skips the request.
func TestLogOutsideTheMiddleware(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	l := accesslog.NewLogger(accesslog.Config{
		Logger: slog.New(slog.NewJSONHandler(&logs, nil)),
		Next:   func(c *fiber.Ctx) bool { return c.Path() == "/skipped" },
	})
	app := fiber.New()
	answer := func(method, path string, status int) {
		var fctx fasthttp.RequestCtx
		fctx.Request.Header.SetMethod(method)
		fctx.Request.SetRequestURI(path)
		c := app.AcquireCtx(&fctx)
		defer app.ReleaseCtx(c)
		c.Status(status)
		l.Log(c, time.Now().Add(-2*time.Millisecond))
	}
	answer("BREW", "/pot?x=1", fiber.StatusNotImplemented)
	answer(fiber.MethodPost, "/skipped", fiber.StatusRequestEntityTooLarge)
	var line map[string]any
	if err := json.Unmarshal(logs.Bytes(), &line); err != nil {
		t.Fatalf("%v: %s (want one line)", err, logs.Bytes())
	}
	want := map[string]any{"msg": accesslog.Message, "method": "BREW", "path": "/pot", "status": float64(501)}
	for k, v := range want {
		if line[k] != v {
			t.Errorf("%s = %v, want %v (line %s)", k, line[k], v, logs.Bytes())
		}
	}
	if ms, ok := line["duration_ms"].(float64); !ok || ms < 2 {
		t.Errorf("duration_ms = %v, want at least the 2 ms since start", line["duration_ms"])
	}
}
