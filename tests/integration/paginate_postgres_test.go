package integration

import (
	"context"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/paging"
	"github.com/asapjs/fiber-template/tests/integration/pgtest"
)

// bulkItem is a row of a table too large to count within a tight budget.
type bulkItem struct {
	bun.BaseModel `bun:"table:bulk_items"`
	ID            int64 `bun:"id,pk"`
	N             int   `bun:"n"`
}

func TestPaginateCountsOnPostgreSQL(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dsn := pgtest.NewDatabase(t)
	db := openDB(t, dsn)
	const rows = 300_000
	for _, stmt := range []string{
		"CREATE TABLE bulk_items (id bigint PRIMARY KEY, n int NOT NULL)",
		"INSERT INTO bulk_items SELECT g, g % 7 FROM generate_series(1, 300000) AS g",
		"ANALYZE bulk_items",
	} {
		if _, err := db.ExecContext(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	list := func(t *testing.T, s database.CountStrategy) paging.Page[bulkItem] {
		t.Helper()
		page, err := database.Paginate[bulkItem](ctx, db.NewSelect().Order("id"), paging.Paging{Page: 2, Limit: 10}, database.WithCount(s))
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Data) != 10 || page.Data[0].ID != 21 || !page.HasNext {
			t.Fatalf("page 2 holds %d rows from id %d, has_next %v", len(page.Data), page.Data[0].ID, page.HasNext)
		}
		return page
	}

	tests := []struct {
		name     string
		strategy database.CountStrategy
		// min and max bound total_elements; exact is total_exact.
		min, max int
		exact    bool
	}{
		{"exact counts every row", database.CountExact, rows, rows, true},
		{"the estimate is the planner's, within 10% after ANALYZE", database.CountEstimate, rows * 9 / 10, rows * 11 / 10, false},
		{"capped stops counting past the cap", database.CountCapped(1000), 1001, 1001, false},
		{"capped above the table is exact", database.CountCapped(rows), rows, rows, true},
		{"auto within a generous budget is exact", database.CountAuto(time.Minute), rows, rows, true},
		{"auto past a 1ms budget falls back to the estimate", database.CountAuto(time.Millisecond), rows * 9 / 10, rows * 11 / 10, false},
		{"auto remembers the query ran out of budget and estimates again", database.CountAuto(time.Millisecond), rows * 9 / 10, rows * 11 / 10, false},
		{"none gives the lower bound the page shows", database.CountNone, 31, 31, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page := list(t, tt.strategy)
			if page.TotalElements < tt.min || page.TotalElements > tt.max || page.TotalExact != tt.exact {
				t.Errorf("total_elements %d total_exact %v, want %d to %d and %v", page.TotalElements, page.TotalExact, tt.min, tt.max, tt.exact)
			}
		})
	}

	// The budget ends a count with a cancel request, which the server may
	// act on after the count is over: on a connection back in the pool it
	// would cancel another request's next statement there. A connection
	// whose count was cancelled is closed instead; one whose count came
	// back in time is kept.
	t.Run("a count the budget cancelled leaves no connection in the pool", func(t *testing.T) {
		one := openDB(t, dsn)
		one.SetMaxOpenConns(1)
		one.SetMaxIdleConns(1)
		backend := func() int {
			t.Helper()
			var pid int
			if err := one.NewRaw("SELECT pg_backend_pid()").Scan(ctx, &pid); err != nil {
				t.Fatal(err)
			}
			return pid
		}
		count := func(s database.CountStrategy) {
			t.Helper()
			if _, err := database.Paginate[bulkItem](ctx, one.NewSelect().Order("id"), paging.Paging{Page: 2, Limit: 10}, database.WithCount(s)); err != nil {
				t.Fatal(err)
			}
		}
		before := backend()
		count(database.CountAuto(time.Minute))
		if kept := backend(); kept != before {
			t.Errorf("a count within its budget replaced the connection: backend %d, then %d", before, kept)
		}
		count(database.CountAuto(time.Millisecond))
		if after := backend(); after == before {
			t.Errorf("the connection of a cancelled count (backend %d) went back to the pool", before)
		}
	})
}
