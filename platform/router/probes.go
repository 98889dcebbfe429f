package router

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/asapjs/fiber-template/platform/middleware/requestid"
	"github.com/asapjs/fiber-template/platform/problem"
)

// ProbeStatus is the body of GET /livez and of a ready GET /readyz.
type ProbeStatus struct {
	// Status is "ok".
	Status string `json:"status" doc:"Probe status" validate:"required,oneof=ok"`
}

// Problems of GET /readyz.
var (
	errShuttingDown = problem.Declare(http.StatusServiceUnavailable, "shutting_down", "Shutting down")
	errNotReady     = problem.Declare(http.StatusServiceUnavailable, "not_ready", "Not ready")
)

// registerProbes mounts the probes of an orchestrator, never under the base
// path: /livez answers while the process serves requests at all, and
// /readyz while it should be sent new ones.
func (r *Router) registerProbes() error {
	if err := r.add(Get("/livez", r.live,
		Summary("Liveness probe"), Description("Answers 200 while the process serves requests; it checks no dependency, so a database outage never restarts the service."),
		Tag(systemTag), OperationID("getLivez"))); err != nil {
		return err
	}
	return r.add(Get("/readyz", r.ready,
		Summary("Readiness probe"), Description("Answers 200 while the service should get traffic: the database answers, the extensions are ready (migrations applied) and it is not shutting down; 503 otherwise."),
		Tag(systemTag), OperationID("getReadyz"), Errors(errShuttingDown, errDatabaseUnavailable, errNotReady)))
}

func (r *Router) live(*Ctx, *struct{}) (*ProbeStatus, error) {
	return &ProbeStatus{Status: "ok"}, nil
}

func (r *Router) ready(c *Ctx, _ *struct{}) (*ProbeStatus, error) {
	if r.draining.Load() {
		return nil, errShuttingDown.WithDetail("The service is shutting down and takes no new requests.")
	}
	ctx, cancel := context.WithTimeout(c.Context(), r.cfg.HealthTimeout)
	defer cancel()
	if r.health != nil {
		if err := r.health.CheckHealth(ctx); err != nil {
			r.logNotReady(c, r.health, err)
			return nil, errDatabaseUnavailable.WithDetail("The database did not answer the readiness check.")
		}
	}
	for _, rc := range r.readiness {
		if err := rc.CheckReady(ctx); err != nil {
			r.logNotReady(c, rc, err)
			return nil, errNotReady.WithDetail("The %s extension is not ready.", rc.Name())
		}
	}
	return &ProbeStatus{Status: "ok"}, nil
}

func (r *Router) logNotReady(c *Ctx, ext Extension, err error) {
	r.cfg.Logger.Warn("not ready",
		slog.String("request_id", requestid.From(c.Fiber())),
		slog.String("extension", ext.Name()),
		slog.Any("error", err))
}

// Drain makes GET /readyz answer 503 from now on, so that load balancers
// stop sending new requests while those already sent are still served.
// Call it when a shutdown begins, some time before Shutdown.
func (r *Router) Drain() { r.draining.Store(true) }
