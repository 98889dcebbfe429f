package router

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/asapjs/fiber-template/platform/openapi"
	"github.com/asapjs/fiber-template/platform/problem"
)

// Extension is anything listed in Config.Extensions. At start-up step 1 the
// router hands each extension what it asks for by implementing the small
// interfaces below; an extension implementing none of them is only named.
type Extension interface {
	// Name identifies the extension in logs and errors.
	Name() string
}

// SchemaRegistry is the part of the spec registry handed to extensions: the
// seed's schema-registration and reference-building functions.
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
	}
	return nil
}

// ProblemsExtension is the error-handling extension: listed in
// Config.Extensions it registers the problem details schema and the
// ProblemCode enum of the declared errors, the router's own and those it is
// given, so the spec names every code a client can meet even when no route
// lists the error.
//
//	router.Config{Extensions: []router.Extension{
//		router.NewProblemsExtension(ErrUserNotFound, ErrEmailTaken),
//	}}
type ProblemsExtension struct {
	errs []*problem.Error
}

// ProblemCodeSchema is the component name of the enum of declared codes.
const ProblemCodeSchema = "ProblemCode"

// NewProblemsExtension returns the error extension for the declared errors
// errs. Two errors with one code but another status or title fail New.
func NewProblemsExtension(errs ...*problem.Error) *ProblemsExtension {
	return &ProblemsExtension{errs: append([]*problem.Error{errDatabaseUnavailable, errUnauthorized}, errs...)}
}

// Name identifies the extension.
func (p *ProblemsExtension) Name() string { return "problems" }

// UseSchemas registers problem.Problem and the ProblemCode enum, whose
// description lists each code with its status and title.
func (p *ProblemsExtension) UseSchemas(reg SchemaRegistry) error {
	if _, err := reg.SchemaFor(reflect.TypeFor[problem.Problem]()); err != nil {
		return err
	}
	byCode := make(map[string]*problem.Error, len(p.errs))
	for _, e := range p.errs {
		if e == nil {
			return fmt.Errorf("nil declared error")
		}
		if prev, ok := byCode[e.Code]; ok && (prev.Status != e.Status || prev.Title != e.Title) {
			return fmt.Errorf("declared errors %q (%d %s) and (%d %s) share a code", e.Code, prev.Status, prev.Title, e.Status, e.Title)
		}
		byCode[e.Code] = e
	}
	codes := slices.Sorted(maps.Keys(byCode))
	var desc strings.Builder
	desc.WriteString("Stable machine-readable codes of the declared errors:\n")
	enum := make([]any, len(codes))
	for i, code := range codes {
		enum[i] = code
		fmt.Fprintf(&desc, "\n- `%s` (%d): %s", code, byCode[code].Status, byCode[code].Title)
	}
	return reg.AddSchema(ProblemCodeSchema, &openapi.Schema{Type: "string", Description: desc.String(), Enum: enum})
}
