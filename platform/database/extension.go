package database

import (
	"context"
	"fmt"
	"sync"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/platform/router"
)

// Extension is the relational-database extension of the router: listed in
// the router's Config.Extensions it answers /health-check with SELECT 1 and
// offers the database developer tools (router.DatabaseTools), GET
// {BasePath}/sync and GET {BasePath}/docs/generate-dbml, over its models.
type Extension struct {
	db        *bun.DB
	resolved  []model
	err       error
	documents bool
	// dbml is written once, from the resolved models.
	dbml string
	// syncMu makes concurrent syncs take turns, so that two of them do not
	// race to create the same table.
	syncMu sync.Mutex
}

// The database extension is what the router asks of it.
var (
	_ router.HealthChecker = (*Extension)(nil)
	_ router.SchemaUser    = (*Extension)(nil)
	_ router.DatabaseTools = (*Extension)(nil)
)

// NewExtension returns the database extension over db; models are the Bun
// models of the application, as pointers to their structs:
//
//	database.NewExtension(db, (*models.User)(nil), (*models.Post)(nil))
//
// Their tables are resolved here, so a bad model tag fails router.New (the
// error is returned from UseSchemas) rather than a later request. A
// many-to-many join model must be listed, as Bun needs it registered.
func NewExtension(db *bun.DB, models ...any) *Extension {
	e := &Extension{db: db}
	e.resolved, e.err = resolveModels(db, models)
	if e.err == nil {
		e.dbml = writeDBML(DialectOfDB(db), e.resolved)
	}
	return e
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
// model Bun could not resolve and, with DocumentModels, registers the
// schema of each model; the json tags of a model name its properties and
// its embedded bun.BaseModel adds none.
func (e *Extension) UseSchemas(reg router.SchemaRegistry) error {
	if e.err != nil {
		return e.err
	}
	if !e.documents {
		return nil
	}
	for _, m := range e.resolved {
		if _, err := reg.SchemaFor(m.table.Type); err != nil {
			return fmt.Errorf("database: model %s: %w", m.table.Type, err)
		}
	}
	return nil
}

// CheckHealth runs SELECT 1.
func (e *Extension) CheckHealth(ctx context.Context) error {
	var one int
	if err := e.db.NewRaw("SELECT 1").Scan(ctx, &one); err != nil {
		return fmt.Errorf("select 1: %w", err)
	}
	return nil
}

// Sync creates the tables of the models that do not exist yet, referenced
// tables first and with their foreign keys, then their missing indexes
// (see Indexer), in one transaction. It never drops, alters or deletes:
// a table whose model changed keeps its columns, which is what migrations
// are for. The report lists the tables in creation order.
func (e *Extension) Sync(ctx context.Context) (router.SyncReport, error) {
	if e.err != nil {
		return router.SyncReport{}, e.err
	}
	e.syncMu.Lock()
	defer e.syncMu.Unlock()
	return syncTables(ctx, e.db, e.resolved)
}

// DBML describes the models' tables in DBML from Bun's table metadata:
// columns with the types the dialect creates, pk, increment, not null,
// unique, default and the doc tag as note; indexes; and a Ref for each
// belongs-to, has-one, has-many and many-to-many relation between listed
// models. The same models always give the same text.
func (e *Extension) DBML(context.Context) (string, error) {
	if e.err != nil {
		return "", e.err
	}
	return e.dbml, nil
}
