package router

import (
	"context"
	"fmt"

	"github.com/gofiber/fiber/v2"
)

// DatabaseTools is an extension offering the database developer tools,
// typically the database extension. When one is listed in
// Config.Extensions the router mounts
//
//	GET {BasePath}/sync                 creates the missing tables and indexes
//	GET {BasePath}/docs/generate-dbml   describes the tables in DBML
//
// Both sit behind the docs Basic auth whenever it is on, and sync is not
// mounted in production unless Config.EnableSyncInProduction says so.
type DatabaseTools interface {
	Extension
	// Sync creates the tables and indexes of the models that do not exist
	// yet. It never drops, alters or deletes anything.
	Sync(ctx context.Context) (SyncReport, error)
	// DBML returns the DBML description of the models' tables.
	DBML(ctx context.Context) (string, error)
}

// SyncReport is the answer of GET {BasePath}/sync: the tables sync created
// and those it found, by name, in the order the models are listed. The
// slices are never nil, so they encode as [] rather than null.
type SyncReport struct {
	// Created lists the tables the call created.
	Created []string `json:"created"`
	// Existing lists the tables that were already there.
	Existing []string `json:"existing"`
	// CreatedIndexes lists the indexes the call created.
	CreatedIndexes []string `json:"created_indexes"`
}

// nonNil returns the report with nil slices made empty.
func (s SyncReport) nonNil() SyncReport {
	for _, p := range []*[]string{&s.Created, &s.Existing, &s.CreatedIndexes} {
		if *p == nil {
			*p = []string{}
		}
	}
	return s
}

// syncAllowed reports whether GET {BasePath}/sync is mounted: everywhere but
// in production, where a GET that changes the database is off unless asked
// for.
func (c Config) syncAllowed() bool {
	return !c.Production || c.EnableSyncInProduction
}

// databaseTools returns the DatabaseTools extension of the configuration,
// or nil; two of them are an error, as two health checkers are.
func (r *Router) databaseTools() (DatabaseTools, error) {
	var tools DatabaseTools
	for _, ext := range r.cfg.Extensions {
		t, ok := ext.(DatabaseTools)
		if !ok {
			continue
		}
		if tools != nil {
			return nil, fmt.Errorf("router: extensions %s and %s both offer database tools", tools.Name(), t.Name())
		}
		tools = t
	}
	return tools, nil
}

// registerDevTools mounts the developer tools of the DatabaseTools
// extension, if any. It runs after registerDocs: generate-dbml lives under
// {BasePath}/docs, where the docs guard already runs first, and sync gets
// the same guard explicitly.
func (r *Router) registerDevTools() error {
	tools, err := r.databaseTools()
	if err != nil || tools == nil {
		return err
	}
	dbml := r.cfg.BasePath + "/docs/generate-dbml"
	if err := r.claimBuiltin(dbml, tools); err != nil {
		return err
	}
	r.app.Get(dbml, serveDBML(tools))
	if !r.cfg.syncAllowed() {
		return nil
	}
	sync := r.cfg.BasePath + "/sync"
	if err := r.claimBuiltin(sync, tools); err != nil {
		return err
	}
	handlers := []fiber.Handler{serveSync(tools)}
	if r.docsGuard != nil {
		handlers = append([]fiber.Handler{r.docsGuard}, handlers...)
	}
	r.app.Get(sync, handlers...)
	return nil
}

// claimBuiltin records a built-in GET route, so that a controller route of
// the same path fails start-up instead of being shadowed.
func (r *Router) claimBuiltin(path string, ext Extension) error {
	return r.claim(fiber.MethodGet, path, "built-in route GET "+path+" ("+ext.Name()+")")
}

// serveSync answers GET {BasePath}/sync; a failure is a 500 whose cause
// goes to the log through the error handler.
func serveSync(tools DatabaseTools) fiber.Handler {
	return func(c *fiber.Ctx) error {
		report, err := tools.Sync(c.UserContext())
		if err != nil {
			return fmt.Errorf("sync: %w", err)
		}
		return c.JSON(report.nonNil())
	}
}

// serveDBML answers GET {BasePath}/docs/generate-dbml with plain text.
func serveDBML(tools DatabaseTools) fiber.Handler {
	return func(c *fiber.Ctx) error {
		dbml, err := tools.DBML(c.UserContext())
		if err != nil {
			return fmt.Errorf("generate dbml: %w", err)
		}
		c.Set(fiber.HeaderContentType, fiber.MIMETextPlainCharsetUTF8)
		return c.SendString(dbml)
	}
}
