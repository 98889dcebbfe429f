package database

import (
	"context"
	"fmt"
	"reflect"
	"sync"

	"github.com/uptrace/bun"
)

// Catalog is the application's models resolved against one database: what
// the health check, the developer tools (sync and DBML) and the spec need
// of them. It knows nothing of HTTP; the router's extension over it is in
// package platform/router/bunext.
type Catalog struct {
	db       *bun.DB
	resolved []model
	err      error
	// dbml is written once, from the resolved models.
	dbml string
	// syncMu makes concurrent syncs take turns, so that two of them do not
	// race to create the same table.
	syncMu sync.Mutex
}

// NewCatalog resolves the models of the application on db, as pointers to
// their structs:
//
//	database.NewCatalog(db, (*models.User)(nil), (*models.Post)(nil))
//
// A bad model is reported by Err, and by every method after, so that the
// service fails at start-up rather than at a later request. A many-to-many
// join model must be listed, as Bun needs it registered.
func NewCatalog(db *bun.DB, models ...any) *Catalog {
	e := &Catalog{db: db}
	e.resolved, e.err = resolveModels(db, models)
	if e.err == nil {
		e.dbml = writeDBML(DialectOfDB(db), e.resolved)
	}
	return e
}

// Err reports a model the catalog could not resolve.
func (e *Catalog) Err() error { return e.err }

// Types returns the Go types of the models, in the order they were given.
func (e *Catalog) Types() []reflect.Type {
	out := make([]reflect.Type, len(e.resolved))
	for i, m := range e.resolved {
		out[i] = m.table.Type
	}
	return out
}

// CheckHealth runs SELECT 1.
func (e *Catalog) CheckHealth(ctx context.Context) error {
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
func (e *Catalog) Sync(ctx context.Context) (SyncReport, error) {
	if e.err != nil {
		return SyncReport{}, e.err
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
func (e *Catalog) DBML() (string, error) {
	if e.err != nil {
		return "", e.err
	}
	return e.dbml, nil
}

// SyncReport is what Sync did: the tables it created and those it found, by
// name, in the order of the models (a table after those its foreign keys
// reference), and the indexes it created.
type SyncReport struct {
	// Created are the tables Sync created.
	Created []string
	// Existing are the tables Sync found already there and left as they were.
	Existing []string
	// CreatedIndexes are the indexes Sync created, in the order of the models.
	CreatedIndexes []string
}
