package router_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/asapjs/fiber-template/platform/router"
	"github.com/asapjs/fiber-template/platform/servicetest"
)

// requestLogLine serves one request that takes at least wait on a router
// logging requests through the handler newHandler makes, and returns the
// log line of the request.
func requestLogLine(t *testing.T, newHandler func(io.Writer) slog.Handler, wait time.Duration) string {
	t.Helper()
	logs := &servicetest.Buffer{}
	r := newRouter(t, router.Config{
		LogRequests: true,
		Logger:      slog.New(newHandler(logs)),
		Controllers: []router.Controller{router.Group{Path: "/l", Declared: []router.Route{
			router.Get("/slow", func(c *router.Ctx, _ *struct{}) (*thing, error) {
				time.Sleep(wait)
				return &thing{ID: 1}, nil
			}),
		}}},
	})
	if resp, body := get(t, r, "/l/slow"); resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	for line := range strings.Lines(logs.String()) {
		if strings.Contains(line, "/l/slow") {
			return line
		}
	}
	t.Fatalf("no log line of the request; log:\n%s", logs.String())
	return ""
}

func TestRequestLogDuration(t *testing.T) {
	t.Parallel()
	const wait = 15 * time.Millisecond
	// textDuration finds the duration_ms of a text line.
	textDuration := regexp.MustCompile(`(?:^| )duration_ms=(\S+)`)
	tests := []struct {
		name       string
		newHandler func(io.Writer) slog.Handler
		// duration returns the line's duration_ms as written, and whether
		// the line has a duration attribute of another name.
		duration func(t *testing.T, line string) (string, bool)
	}{
		{
			name:       "JSON, as in production, has a number of milliseconds",
			newHandler: func(w io.Writer) slog.Handler { return slog.NewJSONHandler(w, nil) },
			duration: func(t *testing.T, line string) (string, bool) {
				var fields map[string]json.RawMessage
				if err := json.Unmarshal([]byte(line), &fields); err != nil {
					t.Fatalf("log line %q: %v", line, err)
				}
				_, other := fields["duration"]
				return string(fields["duration_ms"]), other
			},
		},
		{
			name:       "text, as in development, has the same short decimal",
			newHandler: func(w io.Writer) slog.Handler { return slog.NewTextHandler(w, nil) },
			duration: func(t *testing.T, line string) (string, bool) {
				var ms string
				if m := textDuration.FindStringSubmatch(line); m != nil {
					ms = m[1]
				}
				return ms, strings.Contains(line, " duration=")
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			line := requestLogLine(t, tt.newHandler, wait)
			raw, other := tt.duration(t, line)
			if other {
				t.Errorf("the line has a duration besides duration_ms: %s", line)
			}
			ms, err := strconv.ParseFloat(raw, 64)
			if err != nil {
				t.Fatalf("duration_ms is %q, not a number: %s", raw, line)
			}
			if ms < float64(wait.Milliseconds()) {
				t.Errorf("duration_ms = %v for a request that took at least %v", ms, wait)
			}
			if _, frac, ok := strings.Cut(raw, "."); ok && len(frac) > 3 {
				t.Errorf("duration_ms = %s has more than microsecond precision", raw)
			}
		})
	}
}
