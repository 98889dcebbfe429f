package database_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/paging"
)

// note is a row whose title may be longer than a cursor.
type note struct {
	bun.BaseModel `bun:"table:notes"`
	ID            int64  `bun:"id,pk,autoincrement"`
	Title         string `bun:"title,notnull"`
	Memo          *string
}

func openNotes(t *testing.T, titles ...string) *bun.DB {
	t.Helper()
	db := openTable(t, (*note)(nil))
	for _, title := range titles {
		if _, err := db.NewInsert().Model(&note{Title: title}).Exec(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

func TestPaginateSortedByLongValues(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cursors, err := paging.NewCursors([]byte("sort test"))
	if err != nil {
		t.Fatal(err)
	}
	// Titles of 150 four-byte characters: no cursor could hold one.
	long := func(c string) string { return c + strings.Repeat("𝄞", 150) }
	titles := []string{long("d"), long("b"), long("e"), long("a"), long("c"), long("b")}
	db := openNotes(t, titles...)
	desc := []paging.SortKey{{Column: "title", Desc: true}}
	pageIn := func(db *bun.DB, cursor string) (paging.Page[note], error) {
		return database.Paginate[note](ctx, db.NewSelect(), paging.Paging{Limit: 2},
			database.WithCursors(cursors), database.WithKeyset("id"), database.WithSort(desc...), database.WithCursor(cursor))
	}
	page := func(cursor string) (paging.Page[note], error) { return pageIn(db, cursor) }

	t.Run("every row comes once, in order, by cursors no longer than the limit", func(t *testing.T) {
		var got []string
		cursor := ""
		for range 10 {
			p, err := page(cursor)
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range p.Data {
				got = append(got, n.Title[:1])
			}
			if len(p.NextCursor) > paging.MaxCursorLength {
				t.Fatalf("a cursor of %d characters", len(p.NextCursor))
			}
			if cursor = p.NextCursor; cursor == "" {
				break
			}
		}
		// The two b's tie: the later id comes first, as the key is descending.
		if strings.Join(got, "") != "edcbba" {
			t.Errorf("walked %q, want edcbba", strings.Join(got, ""))
		}
	})
	t.Run("a cursor whose later rows are all gone is an empty last page", func(t *testing.T) {
		db := openNotes(t, titles...)
		first, err := pageIn(db, "")
		if err != nil {
			t.Fatal(err)
		}
		// The first page ends at d, which stays; every row after it goes.
		if _, err := db.NewDelete().Model((*note)(nil)).Where("title < ?", long("d")).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		next, err := pageIn(db, first.NextCursor)
		if err != nil || len(next.Data) != 0 || next.HasNext {
			t.Errorf("the page after the last row: %+v, %v; want an empty last page", next, err)
		}
	})
	t.Run("a cursor after a deleted row is a 400 naming cursor", func(t *testing.T) {
		first, err := page("")
		if err != nil {
			t.Fatal(err)
		}
		// The first page ends at d (id 1); delete everything from there on.
		if _, err := db.NewDelete().Model((*note)(nil)).Where("title <= ?", long("d")).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		_, err = page(first.NextCursor)
		var fe *paging.FieldError
		if !errors.As(err, &fe) || fe.Field != "cursor" {
			t.Errorf("the cursor after a deleted row: %v, want a field error naming cursor", err)
		}
	})
	t.Run("a unique key too long for any cursor is an error, not an over-long cursor", func(t *testing.T) {
		db := openNotes(t, long("a"), long("b"), long("c"))
		_, err := database.Paginate[note](ctx, db.NewSelect(), paging.Paging{Limit: 2},
			database.WithCursors(cursors), database.WithKeyset("title"))
		if err == nil || !strings.Contains(err.Error(), "characters") {
			t.Errorf("paging by long unique titles: %v, want the cursor refused", err)
		}
	})
	t.Run("a column that may be NULL is refused as a key", func(t *testing.T) {
		_, err := database.Paginate[note](ctx, db.NewSelect(), paging.Paging{Limit: 2},
			database.WithCursors(cursors), database.WithKeyset("id"), database.WithSort(paging.SortKey{Column: "memo"}))
		if err == nil || !strings.Contains(err.Error(), "NULL") {
			t.Errorf("sorting by a nullable column: %v, want it refused", err)
		}
	})
}

// event is a row with a time the application writes.
type event struct {
	bun.BaseModel `bun:"table:events"`
	ID            int64     `bun:"id,pk,autoincrement"`
	At            time.Time `bun:"at,notnull"`
}

func TestPaginateSortedByWrittenTimes(t *testing.T) {
	t.Parallel()
	db := openTable(t, (*event)(nil))
	// Whole seconds, ties and fractions: SQLite keeps them as Bun's text.
	base := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	for _, d := range []time.Duration{2 * time.Second, 0, time.Second, 0, 1500 * time.Millisecond, time.Second} {
		if _, err := db.NewInsert().Model(&event{At: base.Add(d)}).Exec(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	walkByTime(t, db, func(e event) int64 { return e.ID }, []int64{2, 4, 3, 6, 5, 1})
}

// stamp is a row whose time the column's default writes.
type stamp struct {
	bun.BaseModel `bun:"table:stamps"`
	ID            int64     `bun:"id,pk,autoincrement"`
	At            time.Time `bun:"at,notnull,default:current_timestamp"`
}

func TestPaginateSortedByDefaultedTimes(t *testing.T) {
	t.Parallel()
	db := openTable(t, (*stamp)(nil))
	// CURRENT_TIMESTAMP's text: whole seconds, no zone; ties follow the id.
	for _, at := range []string{"2024-05-01 12:00:01", "2024-05-01 12:00:00", "2024-05-01 12:00:01", "2024-05-01 12:00:00", "2024-05-01 12:00:02", "2024-05-01 12:00:01"} {
		if _, err := db.ExecContext(t.Context(), "INSERT INTO stamps (at) VALUES (?)", at); err != nil {
			t.Fatal(err)
		}
	}
	walkByTime(t, db, func(s stamp) int64 { return s.ID }, []int64{2, 4, 1, 3, 6, 5})
}

// walkByTime follows the cursors of the rows of T sorted by their column
// at, two a page, both ways, and checks that they come as the ids of want
// ascending (and reversed descending), each once.
func walkByTime[T any](t *testing.T, db *bun.DB, id func(T) int64, want []int64) {
	t.Helper()
	cursors, err := paging.NewCursors([]byte("sort test"))
	if err != nil {
		t.Fatal(err)
	}
	for _, desc := range []bool{false, true} {
		var got []int64
		cursor := ""
		for range 10 {
			p, err := database.Paginate[T](t.Context(), db.NewSelect(), paging.Paging{Limit: 2}, database.WithCursors(cursors),
				database.WithKeyset("id"), database.WithSort(paging.SortKey{Column: "at", Desc: desc}), database.WithCursor(cursor))
			if err != nil {
				t.Fatal(err)
			}
			for _, row := range p.Data {
				got = append(got, id(row))
			}
			if cursor = p.NextCursor; cursor == "" {
				break
			}
		}
		want := slices.Clone(want)
		if desc {
			slices.Reverse(want)
		}
		if !slices.Equal(got, want) {
			t.Errorf("desc %v: walked ids %v, want %v", desc, got, want)
		}
	}
}

// pageQueries keeps the SQL of the page queries a database runs.
type pageQueries struct {
	mu  sync.Mutex
	sql []string
}

// BeforeQuery implements bun.QueryHook.
func (h *pageQueries) BeforeQuery(ctx context.Context, e *bun.QueryEvent) context.Context {
	if !strings.Contains(e.Query, "count(") {
		h.mu.Lock()
		h.sql = append(h.sql, e.Query)
		h.mu.Unlock()
	}
	return ctx
}

// AfterQuery implements bun.QueryHook.
func (*pageQueries) AfterQuery(context.Context, *bun.QueryEvent) {}

// TestAKeysetInOneDirectionIsOneRowComparison: a page after a cursor
// whose keys all go one way starts at one row-value comparison, (title,
// id) > (…), which an index on (title, id) answers as one range; keys
// that go both ways need the expanded OR of each key.
func TestAKeysetInOneDirectionIsOneRowComparison(t *testing.T) {
	t.Parallel()
	cursors, err := paging.NewCursors([]byte("sort test"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		sort []paging.SortKey
		want string
	}{
		{"ascending", []paging.SortKey{{Column: "title"}}, `("title", "id") > (`},
		{"descending", []paging.SortKey{{Column: "title", Desc: true}}, `("title", "id") < (`},
		{"both ways", []paging.SortKey{{Column: "title", Desc: true}, {Column: "id"}}, ` OR `},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			hook := &pageQueries{}
			db := openNotes(t, "a", "b", "c", "d").WithQueryHook(hook)
			page := func(cursor string) paging.Page[note] {
				t.Helper()
				p, err := database.Paginate[note](context.Background(), db.NewSelect(), paging.Paging{Limit: 2},
					database.WithCursors(cursors), database.WithKeyset("id"), database.WithSort(tc.sort...), database.WithCursor(cursor))
				if err != nil {
					t.Fatal(err)
				}
				return p
			}
			first := page("")
			hook.mu.Lock()
			hook.sql = nil
			hook.mu.Unlock()
			if second := page(first.NextCursor); len(second.Data) != 2 {
				t.Fatalf("the second page has %d rows, want 2", len(second.Data))
			}
			hook.mu.Lock()
			defer hook.mu.Unlock()
			if len(hook.sql) == 0 || !strings.Contains(hook.sql[0], tc.want) {
				t.Errorf("the page after the cursor ran %q, want it to hold %q", hook.sql, tc.want)
			}
		})
	}
}
