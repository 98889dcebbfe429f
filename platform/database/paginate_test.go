package database_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/paging"
)

type item struct {
	bun.BaseModel `bun:"table:items"`
	ID            int64 `bun:"id,pk,autoincrement"`
	N             int   `bun:"n,notnull"`
}

// openItems opens a SQLite database with n items numbered 0 to n-1.
func openItems(t *testing.T, n int) *bun.DB {
	t.Helper()
	db := openTable(t, (*item)(nil))
	insertItems(t, db, 0, n)
	return db
}

// openTable opens an empty SQLite database with the table of model.
func openTable(t *testing.T, model any) *bun.DB {
	t.Helper()
	ctx := context.Background()
	db, err := database.Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "p.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	if _, err := db.NewCreateTable().Model(model).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	return db
}

// insertItems adds items numbered from to from+n-1.
func insertItems(t *testing.T, db *bun.DB, from, n int) {
	t.Helper()
	if n == 0 {
		return
	}
	rows := make([]item, n)
	for i := range rows {
		rows[i].N = from + i
	}
	if _, err := db.NewInsert().Model(&rows).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func list(t *testing.T, db *bun.DB, q *bun.SelectQuery, p paging.Paging, opts ...database.Option) paging.Page[item] {
	t.Helper()
	page, err := database.Paginate[item](context.Background(), q, p, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return page
}

func TestPaginate(t *testing.T) {
	t.Parallel()
	// The empty first page shows the total by itself, so even a strategy
	// that counts nothing knows it exactly.
	for _, s := range []database.CountStrategy{{}, database.CountNone, database.CountEstimate, database.CountCapped(0)} {
		t.Run(fmt.Sprintf("with %s, an empty table is an empty array with max page -1, its total exact", s), func(t *testing.T) {
			db := openItems(t, 0)
			page := list(t, db, db.NewSelect().Order("id"), paging.Paging{Page: 0, Limit: 20}, database.WithCount(s))
			if page.Data == nil || len(page.Data) != 0 || page.MaxPage != -1 || page.TotalElements != 0 || page.HasNext || page.HasPrev || !page.TotalExact {
				t.Fatalf("page = %+v", page)
			}
		})
	}
	db := openItems(t, 45)
	// The budgets are generous: a loaded machine that pauses a count past
	// 25 ms gets an estimate, which is the budget's promise, not this test's.
	strategies := []database.CountStrategy{
		database.CountExact, database.CountAuto(time.Minute), database.CountCapped(1000),
	}
	for _, s := range strategies {
		for _, limit := range []int{1, 9, 15, 20, 45} {
			t.Run(fmt.Sprintf("with %s, pages of %d partition the rows with an exact envelope", s, limit), func(t *testing.T) {
				var seen []int
				maxPage := (45+limit-1)/limit - 1
				for p := 0; p <= maxPage+1; p++ {
					page := list(t, db, db.NewSelect().Order("id"), paging.Paging{Page: p, Limit: limit}, database.WithCount(s))
					if page.TotalElements != 45 || !page.TotalExact || page.MaxPage != maxPage || page.HasNext != (p < maxPage) || page.HasPrev != (p != 0) {
						t.Fatalf("page %d: envelope %+v", p, page)
					}
					for _, it := range page.Data {
						seen = append(seen, it.N)
					}
				}
				for i, n := range seen {
					if n != i || len(seen) != 45 {
						t.Fatalf("pages do not partition the 45 rows in order: %v", seen)
					}
				}
			})
		}
	}
}

func TestPaginateCountStrategies(t *testing.T) {
	t.Parallel()
	db := openItems(t, 45)
	tests := []struct {
		name     string
		strategy database.CountStrategy
		p        paging.Paging
		total    int
		exact    bool
		maxPage  int
	}{
		{"none gives the lower bound the first page shows", database.CountNone, paging.Paging{Page: 0, Limit: 10}, 11, false, 1},
		{"none gives the lower bound a middle page shows", database.CountNone, paging.Paging{Page: 2, Limit: 10}, 31, false, 3},
		{"none is exact on the last page, which shows the total", database.CountNone, paging.Paging{Page: 4, Limit: 10}, 45, true, 4},
		{"capped below the total gives cap+1 as a lower bound", database.CountCapped(30), paging.Paging{Page: 0, Limit: 10}, 31, false, 3},
		{"capped above the total is exact", database.CountCapped(45), paging.Paging{Page: 0, Limit: 10}, 45, true, 4},
		{"capped below the page's own lower bound keeps the lower bound", database.CountCapped(5), paging.Paging{Page: 3, Limit: 10}, 41, false, 4},
		{"estimate on SQLite is the lower bound", database.CountEstimate, paging.Paging{Page: 1, Limit: 10}, 21, false, 2},
		{"auto with no budget estimates", database.CountAuto(0), paging.Paging{Page: 0, Limit: 10}, 11, false, 1},
		{"auto within the budget is exact", database.CountAuto(time.Minute), paging.Paging{Page: 0, Limit: 10}, 45, true, 4},
		{"exact is exact", database.CountExact, paging.Paging{Page: 1, Limit: 10}, 45, true, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page := list(t, db, db.NewSelect().Order("id"), tt.p, database.WithCount(tt.strategy))
			wantNext := tt.p.Page < 4
			if page.TotalElements != tt.total || page.TotalExact != tt.exact || page.MaxPage != tt.maxPage || page.HasNext != wantNext {
				t.Errorf("envelope total=%d exact=%v max_page=%d has_next=%v, want %d %v %d %v",
					page.TotalElements, page.TotalExact, page.MaxPage, page.HasNext, tt.total, tt.exact, tt.maxPage, wantNext)
			}
		})
	}
}

func TestPaginateKeyset(t *testing.T) {
	t.Parallel()
	cursors, err := paging.NewCursors([]byte("test secret"))
	if err != nil {
		t.Fatal(err)
	}
	other, err := paging.NewCursors([]byte("another secret"))
	if err != nil {
		t.Fatal(err)
	}
	evens := func(db *bun.DB) *bun.SelectQuery { return db.NewSelect().Where("n % 2 = 0") }
	keyset := func(cursor string) []database.Option {
		return []database.Option{database.WithCursors(cursors), database.WithKeyset("id"), database.WithCursor(cursor)}
	}

	t.Run("following cursors walks every row once while rows are inserted", func(t *testing.T) {
		db := openItems(t, 45)
		page := list(t, db, evens(db), paging.Paging{Page: 0, Limit: 4}, keyset("")...)
		var seen []int
		for i := 0; ; i++ {
			if page.Page != i || page.PageSize != 4 || page.HasPrev != (i > 0) {
				t.Fatalf("step %d: envelope %+v", i, page)
			}
			for _, it := range page.Data {
				seen = append(seen, it.N)
			}
			if page.HasNext != (page.NextCursor != "") {
				t.Fatalf("step %d: has_next %v with next_cursor %q", i, page.HasNext, page.NextCursor)
			}
			if !page.HasNext {
				break
			}
			if i < 3 {
				insertItems(t, db, 100+10*i, 3) // lands after the cursor
			}
			page = list(t, db, evens(db), paging.Paging{Page: 0, Limit: 20}, keyset(page.NextCursor)...)
		}
		var want []int
		for n := 0; n < 45; n += 2 {
			want = append(want, n)
		}
		want = append(want, 100, 102, 110, 112, 120, 122)
		if fmt.Sprint(seen) != fmt.Sprint(want) {
			t.Fatalf("walked %v, want %v", seen, want)
		}
	})

	db := openItems(t, 45)
	first := list(t, db, evens(db), paging.Paging{Page: 0, Limit: 4}, keyset("")...)
	type badCursor struct {
		name    string
		q       *bun.SelectQuery
		cursor  string
		message string
	}
	bad := []badCursor{
		{"a cursor with a changed character", evens(db), first.NextCursor[:5] + flip(first.NextCursor[5]) + first.NextCursor[6:], "issued"},
		{"a cursor without its signature", evens(db), first.NextCursor[:len(first.NextCursor)-10], "issued"},
		{"a cursor signed with another key", evens(db), reissue(t, other, first.NextCursor), "issued"},
		{"random text", evens(db), "hello", "issued"},
		{"a cursor of other filters", db.NewSelect().Where("n % 2 = 1"), first.NextCursor, "other filters"},
	}
	// Signed with the list's own key, with values the id cannot be
	// compared with, or naming a row by one.
	for _, forged := range []struct {
		name  string
		row   bool
		after []any
	}{
		{"a text for the id", false, []any{"8"}},
		{"a time for the id", false, []any{time.Unix(8, 0)}},
		{"a bool for the id", false, []any{true}},
		{"a float for the id", false, []any{8.5}},
		{"two values for the id", false, []any{int64(8), int64(9)}},
		{"no value", false, nil},
		{"a row named by a text", true, []any{"8"}},
	} {
		edit := func(p *paging.Position) { p.After, p.Row = forged.after, forged.row }
		bad = append(bad, badCursor{"a cursor re-signed with " + forged.name, evens(db), reissue(t, cursors, first.NextCursor, edit), "issued"})
	}
	for _, tt := range bad {
		t.Run(tt.name+" is a field error naming cursor", func(t *testing.T) {
			_, err := database.Paginate[item](context.Background(), tt.q, paging.Paging{Limit: 4}, keyset(tt.cursor)...)
			var fe *paging.FieldError
			if !errors.As(err, &fe) || fe.Field != "cursor" {
				t.Fatalf("error %v, want a FieldError naming cursor", err)
			}
		})
	}

	t.Run("a cursor of the list's largest limit is followed, one above it refused", func(t *testing.T) {
		p := paging.Paging{Limit: 4, MaxLimit: 4}
		if _, err := database.Paginate[item](context.Background(), evens(db), p, keyset(first.NextCursor)...); err != nil {
			t.Fatalf("a cursor of limit 4 where 4 is the largest: %v", err)
		}
		over := reissue(t, cursors, first.NextCursor, func(p *paging.Position) { p.Limit = 5 })
		if _, err := database.Paginate[item](context.Background(), evens(db), p, keyset(over)...); !errors.Is(err, paging.ErrCursorInvalid) {
			t.Fatalf("a cursor of limit 5 where 4 is the largest: %v, want it refused", err)
		}
	})

	t.Run("a cursor given to a list without a keyset is a field error naming cursor", func(t *testing.T) {
		_, err := database.Paginate[item](context.Background(), db.NewSelect().Order("id"), paging.Paging{Limit: 4}, database.WithCursor(first.NextCursor))
		var fe *paging.FieldError
		if !errors.As(err, &fe) || fe.Field != "cursor" {
			t.Fatalf("error %v, want a FieldError naming cursor", err)
		}
	})

	t.Run("a keyset without cursors is an error", func(t *testing.T) {
		_, err := database.Paginate[item](context.Background(), evens(db), paging.Paging{Limit: 4}, database.WithKeyset("id"))
		if err == nil {
			t.Fatal("no error")
		}
	})
}

// flip changes a base64url character into another.
func flip(c byte) string {
	if c == 'A' {
		return "B"
	}
	return "A"
}

// reissue signs the position of a cursor with other cursors, as a client
// guessing the key would; with edit, the position edit changes, as a
// client holding the key could.
func reissue(t *testing.T, other *paging.Cursors, cursor string, edit ...func(*paging.Position)) string {
	t.Helper()
	cursors, err := paging.NewCursors([]byte("test secret"))
	if err != nil {
		t.Fatal(err)
	}
	pos, err := cursors.Decode(cursor, paging.Layout{Keys: []paging.Kind{paging.KindInt}})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range edit {
		e(&pos)
	}
	s, err := other.Encode(pos)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestPaginateCursorsCarryTheirCount: a page reached by cursor answers the
// total its first page counted while that count is younger than the
// maximum age, and counts again once it is older, or when counts do not
// travel.
func TestPaginateCursorsCarryTheirCount(t *testing.T) {
	t.Parallel()
	cursors, err := paging.NewCursors([]byte("test secret"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		age   []database.Option
		total int
	}{
		{"within the default age, the first page's count", nil, 45},
		{"past the age, counted again", []database.Option{database.WithCountMaxAge(time.Nanosecond)}, 50},
		{"with no age, counted again", []database.Option{database.WithCountMaxAge(0)}, 50},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := openItems(t, 45)
			opts := func(cursor string) []database.Option {
				return append([]database.Option{database.WithCursors(cursors), database.WithKeyset("id"), database.WithCursor(cursor),
					database.WithCount(database.CountExact)}, tt.age...)
			}
			first := list(t, db, db.NewSelect(), paging.Paging{Limit: 10}, opts("")...)
			insertItems(t, db, 45, 5)
			next := list(t, db, db.NewSelect(), paging.Paging{Limit: 10}, opts(first.NextCursor)...)
			if first.TotalElements != 45 || next.TotalElements != tt.total || !next.TotalExact {
				t.Errorf("totals %d then %d (exact %v), want 45 then %d, exact", first.TotalElements, next.TotalElements, next.TotalExact, tt.total)
			}
		})
	}
}
