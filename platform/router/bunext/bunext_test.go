package bunext_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/openapi"
	"github.com/asapjs/fiber-template/platform/router"
	"github.com/asapjs/fiber-template/platform/router/bunext"
	"github.com/asapjs/fiber-template/platform/servicetest"
)

type (
	documented struct {
		bun.BaseModel `bun:"table:documented"`

		ID   int64  `bun:"id,pk,autoincrement" json:"id"`
		Name string `bun:"name,notnull" json:"name" doc:"Display name"`
	}
	sameTable struct {
		bun.BaseModel `bun:"table:documented"`

		ID int64 `bun:"id,pk,autoincrement"`
	}
)

func TestABadModelFailsStartUp(t *testing.T) {
	t.Parallel()
	ext := bunext.New(database.NewCatalog(servicetest.SQLite(t), (*documented)(nil), (*sameTable)(nil)))
	_, err := router.New(router.Config{Extensions: []router.Extension{ext}, Logger: slog.New(slog.DiscardHandler)})
	if err == nil || !strings.Contains(err.Error(), "share the table documented") {
		t.Fatalf("router.New = %v, want the catalog's error", err)
	}
}

func TestUseSchemas(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		ext       func(*bunext.Extension) *bunext.Extension
		wantModel bool
	}{
		{"by default no model schema is registered", func(e *bunext.Extension) *bunext.Extension { return e }, false},
		{"DocumentModels registers each model by its json names", (*bunext.Extension).DocumentModels, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			reg := openapi.New(openapi.Config{})
			ext := tc.ext(bunext.New(database.NewCatalog(servicetest.SQLite(t), (*documented)(nil))))
			if err := ext.UseSchemas(reg); err != nil {
				t.Fatal(err)
			}
			doc, err := reg.Document()
			if err != nil {
				t.Fatal(err)
			}
			s := doc.Components.Schemas["documented"]
			if (s != nil) != tc.wantModel {
				t.Fatalf("schemas %v, want the model documented: %v", doc.Components.Schemas, tc.wantModel)
			}
			if s == nil {
				return
			}
			if len(s.Properties) != 2 || s.Properties["name"] == nil || s.Properties["name"].Description != "Display name" {
				t.Errorf("documented properties = %v, want id and name, with nothing from bun.BaseModel", s.Properties)
			}
		})
	}
}

func TestTheToolsAnswerFromTheCatalog(t *testing.T) {
	t.Parallel()
	ext := bunext.New(database.NewCatalog(servicetest.SQLite(t), (*documented)(nil)))
	ctx := context.Background()
	if err := ext.CheckHealth(ctx); err != nil {
		t.Fatalf("CheckHealth: %v", err)
	}
	report, err := ext.Sync(ctx)
	if err != nil || len(report.Created) != 1 || report.Created[0] != "documented" {
		t.Fatalf("Sync = %+v, %v, want the documented table created", report, err)
	}
	dbml, err := ext.DBML(ctx)
	if err != nil || !strings.Contains(dbml, "Table documented") {
		t.Fatalf("DBML = %q, %v", dbml, err)
	}
}
