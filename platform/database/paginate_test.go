package database_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/paging"
)

type item struct {
	bun.BaseModel `bun:"table:items"`
	ID            int64 `bun:"id,pk,autoincrement"`
	N             int   `bun:"n,notnull"`
}

func TestPaginate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := database.Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "p.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.NewCreateTable().Model((*item)(nil)).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	list := func(p paging.Paging) paging.Page[item] {
		t.Helper()
		page, err := database.Paginate[item](ctx, db.NewSelect().Order("id"), p)
		if err != nil {
			t.Fatal(err)
		}
		return page
	}
	t.Run("an empty table is an empty array with max page -1", func(t *testing.T) {
		page := list(paging.Paging{Page: 0, Limit: 20})
		if page.Data == nil || len(page.Data) != 0 || page.MaxPage != -1 || page.TotalElements != 0 || page.HasNext || page.HasPrev {
			t.Fatalf("page = %+v", page)
		}
	})
	rows := make([]item, 45)
	for i := range rows {
		rows[i].N = i
	}
	if _, err := db.NewInsert().Model(&rows).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	for _, limit := range []int{1, 9, 15, 20, 45} {
		var seen []int
		maxPage := (45+limit-1)/limit - 1
		for p := 0; p <= maxPage+1; p++ {
			page := list(paging.Paging{Page: p, Limit: limit})
			if page.TotalElements != 45 || page.MaxPage != maxPage || page.HasNext != (p < maxPage) || page.HasPrev != (p != 0) {
				t.Fatalf("limit %d page %d: envelope %+v", limit, p, page)
			}
			for _, it := range page.Data {
				seen = append(seen, it.N)
			}
			if p == maxPage+1 && len(page.Data) != 0 {
				t.Fatalf("limit %d: the page past the end has %d items", limit, len(page.Data))
			}
		}
		for i, n := range seen {
			if n != i {
				t.Fatalf("limit %d: pages do not partition the rows in order: %v", limit, seen)
			}
		}
		if len(seen) != 45 {
			t.Fatalf("limit %d: pages hold %d rows, want 45", limit, len(seen))
		}
	}
}
