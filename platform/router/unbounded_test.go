package router_test

import (
	"log/slog"
	"strings"
	"testing"

	"github.com/asapjs/fiber-template/platform/router"
	"github.com/asapjs/fiber-template/platform/servicetest"
)

// TestAnUnboundedBodyIsNamedAtStartUp checks that start-up tells, at debug
// level, which routes' bodies only the server's body limit bounds (a member
// without maxLength, maxItems or a closed object), and only those.
func TestAnUnboundedBodyIsNamedAtStartUp(t *testing.T) {
	t.Parallel()
	type open struct {
		Body struct {
			Note string `json:"note"`
		}
	}
	type bounded struct {
		Body struct {
			Note string `json:"note" validate:"max=20"`
		}
	}
	var logs servicetest.Buffer
	newRouter(t, router.Config{
		BasePath: "/api",
		Logger:   slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Controllers: []router.Controller{router.Group{Path: "/notes", Declared: []router.Route{
			router.Post("/open", func(*router.Ctx, *open) (*struct{}, error) { return nil, nil }),
			router.Post("/bounded", func(*router.Ctx, *bounded) (*struct{}, error) { return nil, nil }),
		}}},
	})
	var named []string
	for line := range strings.Lines(logs.String()) {
		if strings.Contains(line, "the server's body limit applies") {
			named = append(named, line)
		}
	}
	if len(named) != 1 || !strings.Contains(named[0], "POST /api/notes/open") {
		t.Fatalf("start-up named %q, want only POST /api/notes/open; the log:\n%s", named, logs.String())
	}
}
