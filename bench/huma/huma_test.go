package humabench

import (
	"context"
	"log/slog"
	"testing"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humafiber"
	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/bench"
	"github.com/asapjs/fiber-template/platform/paging"
)

// listInput is the list route's input in huma's tags: the same page,
// limit, role, q and active parameters with the same rules.
type listInput struct {
	Page   int    `query:"page" default:"0" minimum:"0"`
	Limit  int    `query:"limit" default:"20" minimum:"1" maximum:"100"`
	Role   string `query:"role" enum:"admin,member,guest"`
	Q      string `query:"q" maxLength:"100"`
	Active bool   `query:"active"`
}

type listOutput struct {
	Body paging.Page[bench.User]
}

// humaApp declares the list route with huma on Fiber.
func humaApp() *fiber.App {
	app := fiber.New(fiber.Config{DisableStartupMessage: true})
	api := humafiber.New(app, huma.DefaultConfig("Bench", "1.0.0"))
	huma.Register(api, huma.Operation{OperationID: "listUsers", Method: "GET", Path: "/api/users"},
		func(ctx context.Context, in *listInput) (*listOutput, error) {
			return &listOutput{Body: paging.New(bench.Users, 45, paging.Paging{Page: in.Page, Limit: in.Limit})}, nil
		})
	return app
}

func routerApp(b *testing.B) *fiber.App {
	app, err := bench.RouterApp(false)
	if err != nil {
		b.Fatal(err)
	}
	return app
}

// BenchmarkList compares raw Fiber, the router and huma on the handler
// path; BenchmarkListHTTP through app.Test.
func BenchmarkList(b *testing.B) {
	slog.SetLogLoggerLevel(slog.LevelError)
	b.Run("impl=raw-fiber", func(b *testing.B) { bench.Handler(b, bench.RawApp(false), "") })
	b.Run("impl=router", func(b *testing.B) { bench.Handler(b, routerApp(b), "") })
	b.Run("impl=huma", func(b *testing.B) { bench.Handler(b, humaApp(), "") })
}

func BenchmarkListHTTP(b *testing.B) {
	b.Run("impl=raw-fiber", func(b *testing.B) { bench.HTTP(b, bench.RawApp(false), "") })
	b.Run("impl=router", func(b *testing.B) { bench.HTTP(b, routerApp(b), "") })
	b.Run("impl=huma", func(b *testing.B) { bench.HTTP(b, humaApp(), "") })
}
