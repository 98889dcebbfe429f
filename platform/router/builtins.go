package router

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/problem"
)

// RootMessage is the body of GET {basePath}.
type RootMessage struct {
	// Message says the service runs.
	Message string `json:"message" doc:"Confirms that the server runs" example:"api is running" validate:"required"`
}

// HealthStatus is the body of GET /health-check.
type HealthStatus struct {
	// Status is "ok" when the service and its database can serve.
	Status string `json:"status" doc:"Service status" enum:"ok" validate:"required"`
	// Database is "ok", or "not configured" without a database extension.
	Database string `json:"database" doc:"Database status" enum:"ok,not configured" validate:"required"`
}

// registerBuiltins is start-up step 4: the root message, the health check
// and the docs endpoints.
func (r *Router) registerBuiltins() error {
	root := r.RootURL()
	message := RootMessage{Message: r.cfg.Name + " is running"}
	if err := r.add(Get(root, func(c *Ctx, _ *struct{}) (*RootMessage, error) {
		return &message, nil
	}, Title("Service status message"), Tag("System"), OperationID("getRoot"))); err != nil {
		return err
	}
	if err := r.add(Get("/health-check", r.healthCheck,
		Title("Health check"), Description("Runs SELECT 1 against the database."), Tag("System"),
		OperationID("getHealthCheck"), Errors(errDatabaseUnavailable))); err != nil {
		return err
	}
	return r.registerDocs()
}

var errDatabaseUnavailable = problem.Declare(http.StatusServiceUnavailable, "database_unavailable", "Database unavailable")

func (r *Router) healthCheck(c *Ctx, _ *struct{}) (*HealthStatus, error) {
	if r.health == nil {
		return &HealthStatus{Status: "ok", Database: "not configured"}, nil
	}
	ctx, cancel := context.WithTimeout(c.Context(), r.cfg.HealthTimeout)
	defer cancel()
	if err := r.health.CheckHealth(ctx); err != nil {
		r.cfg.Logger.Error("health check failed",
			slog.String("request_id", requestID(c.Fiber())),
			slog.String("extension", r.health.Name()),
			slog.Any("error", err))
		return nil, errDatabaseUnavailable.WithDetail("The database did not answer the health check.")
	}
	return &HealthStatus{Status: "ok", Database: "ok"}, nil
}

// registerDocs mounts spec.json and the docs UI.
func (r *Router) registerDocs() error {
	r.app.Get(r.cfg.BasePath+"/docs/spec.json", func(c *fiber.Ctx) error {
		b, err := r.spec.JSON()
		if err != nil {
			return err
		}
		return c.Send(b)
	})
	return nil
}
