package database_test

import (
	"context"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/platform/database"
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
)

func (*badIndex) Indexes() []database.Index {
	return []database.Index{{Columns: []string{"missing"}}}
}

func TestNewCatalogReportsBadModels(t *testing.T) {
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
		t.Run(tt.name+" fails Err, sync and DBML", func(t *testing.T) {
			t.Parallel()
			c := database.NewCatalog(openSQLite(t), tt.models...)
			if err := c.Err(); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Err = %v, want an error containing %q", err, tt.want)
			}
			if _, err := c.Sync(context.Background()); err == nil {
				t.Error("Sync succeeded")
			}
			if _, err := c.DBML(); err == nil {
				t.Error("DBML succeeded")
			}
		})
	}
}
