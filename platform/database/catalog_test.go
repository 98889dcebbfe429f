package database_test

import (
	"context"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/openapi"
	"github.com/asapjs/fiber-template/platform/router"
)

// Models that Bun or the extension refuse.
type (
	orphanBook struct {
		bun.BaseModel `bun:"table:orphan_books"`

		ID   int64  `bun:"id,pk,autoincrement"`
		Tags []*tag `bun:"m2m:orphan_book_tags,join:Book=Tag"`
	}
	otherAuthor struct {
		bun.BaseModel `bun:"table:authors"`

		ID int64 `bun:"id,pk,autoincrement"`
	}
	badIndex struct {
		bun.BaseModel `bun:"table:bad_indexes"`

		ID int64 `bun:"id,pk,autoincrement"`
	}
	documented struct {
		bun.BaseModel `bun:"table:documented"`

		ID   int64  `bun:"id,pk,autoincrement" json:"id"`
		Name string `bun:"name,notnull" json:"name" doc:"Display name"`
	}
)

func (*badIndex) Indexes() []database.Index {
	return []database.Index{{Columns: []string{"missing"}}}
}

func TestNewExtensionReportsBadModels(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		models []any
		want   string
	}{
		{"a nil model", []any{nil}, "want a pointer to a struct"},
		{"a model that is not a struct", []any{new(int)}, "want a pointer to a struct"},
		{"a many-to-many whose join model is not listed", []any{(*tag)(nil), (*orphanBook)(nil)}, "orphan_book_tags"},
		{"two models of one table", []any{(*author)(nil), (*otherAuthor)(nil)}, "share the table authors"},
		{"an index on an unknown column", []any{(*badIndex)(nil)}, `unknown column "missing"`},
	}
	for _, tt := range tests {
		t.Run(tt.name+" fails start-up, sync and DBML", func(t *testing.T) {
			t.Parallel()
			ext := database.NewExtension(openSQLite(t), tt.models...)
			_, err := router.New(router.Config{Extensions: []router.Extension{ext}})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("router.New = %v, want an error containing %q", err, tt.want)
			}
			if _, err := ext.Sync(context.Background()); err == nil {
				t.Error("Sync succeeded")
			}
			if _, err := ext.DBML(context.Background()); err == nil {
				t.Error("DBML succeeded")
			}
		})
	}
}

func TestUseSchemas(t *testing.T) {
	t.Parallel()

	t.Run("by default no model schema is registered", func(t *testing.T) {
		t.Parallel()
		reg := openapi.New(openapi.Config{})
		if err := database.NewExtension(openSQLite(t), (*documented)(nil)).UseSchemas(reg); err != nil {
			t.Fatal(err)
		}
		doc, err := reg.Document()
		if err != nil {
			t.Fatal(err)
		}
		if len(doc.Components.Schemas) != 0 {
			t.Errorf("schemas %v registered", doc.Components.Schemas)
		}
	})

	t.Run("DocumentModels registers each model by its json names, with nothing from bun.BaseModel", func(t *testing.T) {
		t.Parallel()
		reg := openapi.New(openapi.Config{})
		ext := database.NewExtension(openSQLite(t), (*documented)(nil), (*author)(nil)).DocumentModels()
		if err := ext.UseSchemas(reg); err != nil {
			t.Fatal(err)
		}
		doc, err := reg.Document()
		if err != nil {
			t.Fatal(err)
		}
		s := doc.Components.Schemas["documented"]
		if s == nil {
			t.Fatalf("no schema for documented in %v", doc.Components.Schemas)
		}
		if len(s.Properties) != 2 || s.Properties["id"] == nil || s.Properties["name"] == nil {
			t.Errorf("documented properties = %v, want id and name", s.Properties)
		}
		if s.Properties["name"] != nil && s.Properties["name"].Description != "Display name" {
			t.Errorf("name description = %q", s.Properties["name"].Description)
		}
		for name, schema := range doc.Components.Schemas {
			for prop := range schema.Properties {
				if prop == "BaseModel" {
					t.Errorf("schema %s has a BaseModel property", name)
				}
			}
		}
		if doc.Components.Schemas["author"] == nil || doc.Components.Schemas["book"] == nil {
			t.Errorf("the related models are not registered: %v", doc.Components.Schemas)
		}
	})
}
