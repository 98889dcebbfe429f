package integration

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/paging"
	"github.com/asapjs/fiber-template/tests/integration/pgtest"
)

// countWatch sees the statements of a list: how many counts ran, and
// whether the page's query ran while a count had started. The page's
// query waits (up to a bound) for a count to start, so that a count run
// beside the page is seen beside it, and a count run after it is not.
type countWatch struct {
	mu      sync.Mutex
	counts  int
	started chan struct{}
	beside  bool
}

func newCountWatch() *countWatch { return &countWatch{started: make(chan struct{})} }

// BeforeQuery implements bun.QueryHook.
func (w *countWatch) BeforeQuery(ctx context.Context, e *bun.QueryEvent) context.Context {
	if strings.Contains(e.Query, "count(") {
		w.mu.Lock()
		if w.counts == 0 {
			close(w.started)
		}
		w.counts++
		w.mu.Unlock()
		return ctx
	}
	if strings.Contains(e.Query, "LIMIT") {
		select {
		case <-w.started:
			w.mu.Lock()
			w.beside = true
			w.mu.Unlock()
		case <-time.After(2 * time.Second):
		}
	}
	return ctx
}

// AfterQuery implements bun.QueryHook.
func (*countWatch) AfterQuery(context.Context, *bun.QueryEvent) {}

// seen reports the counts that ran and whether one ran beside the page.
func (w *countWatch) seen() (int, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.counts, w.beside
}

// TestPaginateCountsBesideThePageOnPostgreSQL: on PostgreSQL a list that
// counts runs its count beside the page, on a connection of its own, so
// that it waits for the slower of the two and not for their sum; a list
// that does not count sends no count; and a page reached by a cursor that
// carries a recent count answers it without counting again.
func TestPaginateCountsBesideThePageOnPostgreSQL(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	base := openDB(t, pgtest.NewDatabase(t))
	for _, stmt := range []string{
		"CREATE TABLE bulk_items (id bigint PRIMARY KEY, n int NOT NULL)",
		"INSERT INTO bulk_items SELECT g, g % 7 FROM generate_series(1, 100) AS g",
	} {
		if _, err := base.ExecContext(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	cursors, err := paging.NewCursors([]byte("beside test"))
	if err != nil {
		t.Fatal(err)
	}
	// list pages the table with opts, watched.
	list := func(t *testing.T, cursor string, opts ...database.Option) (paging.Page[bulkItem], *countWatch) {
		t.Helper()
		w := newCountWatch()
		db := base.WithQueryHook(w)
		opts = append(opts, database.WithCursors(cursors), database.WithKeyset("id"), database.WithCursor(cursor))
		page, err := database.Paginate[bulkItem](ctx, db.NewSelect(), paging.Paging{Limit: 10}, opts...)
		if err != nil {
			t.Fatal(err)
		}
		return page, w
	}

	t.Run("a counted list counts once, beside the page", func(t *testing.T) {
		page, w := list(t, "", database.WithCount(database.CountExact))
		if counts, beside := w.seen(); counts != 1 || !beside {
			t.Errorf("%d counts, beside the page: %v; want 1, beside it", counts, beside)
		}
		if page.TotalElements != 100 || !page.TotalExact {
			t.Errorf("total_elements %d exact %v, want 100 exact", page.TotalElements, page.TotalExact)
		}
	})
	t.Run("a list that does not count sends no count", func(t *testing.T) {
		_, w := list(t, "", database.WithCount(database.CountNone))
		if counts, _ := w.seen(); counts != 0 {
			t.Errorf("CountNone sent %d counts", counts)
		}
	})
	t.Run("a cursor's recent count is not counted again", func(t *testing.T) {
		first, _ := list(t, "", database.WithCount(database.CountExact))
		next, w := list(t, first.NextCursor, database.WithCount(database.CountExact))
		if counts, _ := w.seen(); counts != 0 {
			t.Errorf("the page after the cursor ran %d counts, want the cursor's", counts)
		}
		if next.Page != 1 || next.TotalElements != 100 || !next.TotalExact {
			t.Errorf("page %d total_elements %d exact %v, want page 1 and the first page's exact 100", next.Page, next.TotalElements, next.TotalExact)
		}
	})
}
