package router

import (
	"context"
	"fmt"
	"reflect"

	"github.com/asapjs/fiber-template/platform/openapi"
)

// Extension is anything listed in Config.Extensions. At start-up step 1 the
// router hands each extension what it asks for by implementing the small
// interfaces below; an extension implementing none of them is only named.
type Extension interface {
	// Name identifies the extension in logs and errors.
	Name() string
}

// SchemaRegistry is the part of the spec registry handed to extensions: it
// registers component schemas and builds references to them.
type SchemaRegistry interface {
	// AddSchema registers a raw component schema under name.
	AddSchema(name string, s *openapi.Schema) error
	// SchemaFor registers the schema of a Go type and returns its reference.
	SchemaFor(t reflect.Type) (*openapi.Schema, error)
}

// SchemaUser is an extension that registers schemas in the spec, such as the
// database extension (its models) or an error extension (its problems).
type SchemaUser interface {
	Extension
	// UseSchemas is called once at start-up with the registry.
	UseSchemas(reg SchemaRegistry) error
}

// HealthChecker is an extension that /health-check asks, typically the
// database extension running SELECT 1.
type HealthChecker interface {
	Extension
	// CheckHealth returns an error when the dependency cannot serve.
	CheckHealth(ctx context.Context) error
}

// OutageDetector is an extension that recognises the errors of a
// dependency that cannot serve for now (refused, reset, shutting down, out
// of connections), which the router answers 503 with Retry-After instead
// of 500, on every route. The database extension is one.
type OutageDetector interface {
	Extension
	// Outage reports whether err says the dependency is unavailable.
	Outage(err error) bool
}

// ReadinessChecker is an extension that GET /readyz asks besides the
// health check, such as one that checks the migrations are applied.
type ReadinessChecker interface {
	Extension
	// CheckReady returns an error while the service should get no traffic.
	CheckReady(ctx context.Context) error
}

// wireExtensions is start-up step 1.
func (r *Router) wireExtensions() error {
	for _, ext := range r.cfg.Extensions {
		if ext == nil {
			return fmt.Errorf("router: nil extension in Config.Extensions")
		}
		if su, ok := ext.(SchemaUser); ok {
			if err := su.UseSchemas(r.spec); err != nil {
				return fmt.Errorf("router: extension %s: %w", ext.Name(), err)
			}
		}
		if hc, ok := ext.(HealthChecker); ok {
			if r.health != nil {
				return fmt.Errorf("router: extensions %s and %s both check health", r.health.Name(), ext.Name())
			}
			r.health = hc
		}
		if rc, ok := ext.(ReadinessChecker); ok {
			r.readiness = append(r.readiness, rc)
		}
		if od, ok := ext.(OutageDetector); ok {
			r.outages = append(r.outages, od)
		}
	}
	return nil
}
