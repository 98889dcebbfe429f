// Package bunext plugs a Bun database into the router's extension seams:
// the health check runs SELECT 1, the developer tools sync and describe the
// models' tables, and the models' schemas can be documented. It is the one
// place that knows both packages, so that platform/database stays pure Bun
// and models never pull in Fiber.
//
//	cfg.Extensions = append(cfg.Extensions,
//		bunext.New(database.NewCatalog(db, (*models.User)(nil))))
package bunext

import (
	"context"
	"fmt"

	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/router"
)

// Extension is the database extension of the router over a catalog of
// models.
type Extension struct {
	catalog   *database.Catalog
	documents bool
}

// The extension is what the router asks of a database.
var (
	_ router.HealthChecker  = (*Extension)(nil)
	_ router.SchemaUser     = (*Extension)(nil)
	_ router.DatabaseTools  = (*Extension)(nil)
	_ router.OutageDetector = (*Extension)(nil)
)

// New returns the extension over catalog. A model the catalog could not
// resolve fails router.New.
func New(catalog *database.Catalog) *Extension {
	return &Extension{catalog: catalog}
}

// DocumentModels makes UseSchemas register a component schema for each
// model, named after its Go type, and returns e. It is off by default:
// models often share their names with the DTOs the API sends (models.User
// and dto.User are both "User", which fails start-up) and hold columns, such
// as password hashes, that the API never shows.
func (e *Extension) DocumentModels() *Extension {
	e.documents = true
	return e
}

// Name identifies the extension.
func (e *Extension) Name() string { return "database" }

// UseSchemas is handed the spec registry at router start-up. It reports a
// model the catalog could not resolve and, with DocumentModels, registers
// the schema of each model; the json tags of a model name its properties
// and its embedded bun.BaseModel adds none.
func (e *Extension) UseSchemas(reg router.SchemaRegistry) error {
	if err := e.catalog.Err(); err != nil {
		return err
	}
	if !e.documents {
		return nil
	}
	for _, t := range e.catalog.Types() {
		if _, err := reg.SchemaFor(t); err != nil {
			return fmt.Errorf("database: model %s: %w", t, err)
		}
	}
	return nil
}

// CheckHealth runs SELECT 1.
func (e *Extension) CheckHealth(ctx context.Context) error {
	return e.catalog.CheckHealth(ctx)
}

// Outage reports whether err says the database cannot serve for now (see
// database.Unavailable), which the router answers 503 with Retry-After.
func (e *Extension) Outage(err error) bool {
	return database.Unavailable(err)
}

// Sync creates the missing tables and indexes of the models.
func (e *Extension) Sync(ctx context.Context) (router.SyncReport, error) {
	r, err := e.catalog.Sync(ctx)
	if err != nil {
		return router.SyncReport{}, err
	}
	return router.SyncReport{Created: r.Created, Existing: r.Existing, CreatedIndexes: r.CreatedIndexes}, nil
}

// DBML describes the models' tables in DBML.
func (e *Extension) DBML(context.Context) (string, error) {
	return e.catalog.DBML()
}
