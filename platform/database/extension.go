package database

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
)

// Extension is the relational-database extension of the router: listed in
// the router's Config.Extensions it answers /health-check with SELECT 1.
type Extension struct {
	db     *bun.DB
	models []any
}

// NewExtension returns the database extension over db; models are the Bun
// models of the application.
func NewExtension(db *bun.DB, models ...any) *Extension {
	return &Extension{db: db, models: models}
}

// Name identifies the extension.
func (e *Extension) Name() string { return "database" }

// CheckHealth runs SELECT 1.
func (e *Extension) CheckHealth(ctx context.Context) error {
	var one int
	if err := e.db.NewRaw("SELECT 1").Scan(ctx, &one); err != nil {
		return fmt.Errorf("select 1: %w", err)
	}
	return nil
}
