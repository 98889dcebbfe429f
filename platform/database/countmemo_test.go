package database_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/paging"
)

// slowCounts makes every count(*) wait until its context is done, as a
// count of a table too large for the budget would, and counts them.
type slowCounts struct{ n atomic.Int64 }

// BeforeQuery implements bun.QueryHook.
func (h *slowCounts) BeforeQuery(ctx context.Context, e *bun.QueryEvent) context.Context {
	if strings.Contains(e.Query, "count(*)") {
		h.n.Add(1)
		select {
		case <-ctx.Done():
		case <-time.After(10 * time.Second):
		}
	}
	return ctx
}

// AfterQuery implements bun.QueryHook.
func (*slowCounts) AfterQuery(context.Context, *bun.QueryEvent) {}

func TestCountAutoRemembersQueriesOverBudget(t *testing.T) {
	t.Parallel()
	hook := &slowCounts{}
	db := openItems(t, 30).WithQueryHook(hook)
	p := paging.Paging{Page: 0, Limit: 10}
	// page lists with opts and reports whether it tried to count.
	page := func(t *testing.T, opts ...database.Option) bool {
		t.Helper()
		before := hook.n.Load()
		got := list(t, db, db.NewSelect().Order("id"), p, opts...)
		if got.TotalExact || got.TotalElements != 11 {
			t.Fatalf("total_elements %d total_exact %v, want the lower bound 11, not exact", got.TotalElements, got.TotalExact)
		}
		return hook.n.Load() > before
	}

	t.Run("one strategy counts once, then estimates", func(t *testing.T) {
		opt := database.WithCount(database.CountAuto(5 * time.Millisecond))
		if !page(t, opt) {
			t.Fatal("the first list did not try to count")
		}
		if page(t, opt) {
			t.Error("the second list counted again within the minute")
		}
	})
	t.Run("the memo is the strategy's: another one counts", func(t *testing.T) {
		if !page(t, database.WithCount(database.CountAuto(5*time.Millisecond))) {
			t.Error("a new strategy did not try to count")
		}
	})
	t.Run("a budget of zero never counts", func(t *testing.T) {
		if page(t, database.WithCount(database.CountAuto(0))) {
			t.Error("CountAuto(0) tried to count")
		}
	})
	t.Run("options built once from the zero value remember", func(t *testing.T) {
		opt := database.WithCount(database.CountStrategy{})
		if !page(t, opt) {
			t.Fatal("the first list did not try to count")
		}
		if page(t, opt) {
			t.Error("the second list counted again within the minute")
		}
	})
}
