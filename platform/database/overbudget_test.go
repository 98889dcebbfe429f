package database

import (
	"fmt"
	"testing"
	"time"
)

func TestBudgetMemo(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	key := func(i int) memoKey { return memoKey{sql: fmt.Sprintf("SELECT %d", i)} }

	t.Run("a nil memo remembers nothing", func(t *testing.T) {
		var m *budgetMemo
		m.add(key(1), now)
		if m.recent(key(1), now) {
			t.Fatal("a nil memo remembered a query")
		}
	})
	t.Run("a query is remembered for overBudgetTTL", func(t *testing.T) {
		m := newBudgetMemo()
		if m.recent(key(1), now) {
			t.Fatal("an empty memo remembered a query")
		}
		m.add(key(1), now)
		if !m.recent(key(1), now.Add(overBudgetTTL-time.Nanosecond)) {
			t.Error("forgot the query within the TTL")
		}
		if m.recent(key(1), now.Add(overBudgetTTL)) {
			t.Error("remembered the query past the TTL")
		}
		if m.recent(key(2), now) {
			t.Error("remembered a query never added")
		}
	})
	t.Run("full, it drops expired entries first, then any", func(t *testing.T) {
		m := newBudgetMemo()
		for i := range overBudgetMax {
			m.add(key(i), now)
		}
		later := now.Add(overBudgetTTL / 2)
		m.add(key(-1), later)
		if len(m.until) != overBudgetMax || !m.recent(key(-1), later) {
			t.Fatalf("full memo with a new query: %d entries, new one remembered %v", len(m.until), m.recent(key(-1), later))
		}
		expired := now.Add(overBudgetTTL + time.Second)
		m.add(key(-2), expired)
		if len(m.until) != 2 || !m.recent(key(-1), expired) || !m.recent(key(-2), expired) {
			t.Fatalf("after the old entries expired: %d entries, want the 2 live ones", len(m.until))
		}
	})
}

func TestCountStrategyOwnsItsMemo(t *testing.T) {
	t.Parallel()
	auto := CountAuto(DefaultCountBudget)
	if auto.memo == nil {
		t.Fatal("CountAuto made no memo")
	}
	copied := auto
	if copied.memo != auto.memo {
		t.Error("a copy of the strategy has a memo of its own")
	}
	if CountAuto(DefaultCountBudget).memo == auto.memo {
		t.Error("two CountAuto calls share a memo")
	}

	apply := func(o Option) CountStrategy {
		var c pageConfig
		o(&c)
		return c.count
	}
	if got := apply(WithCount(auto)); got.memo != auto.memo {
		t.Error("WithCount replaced the memo of CountAuto")
	}
	zero := WithCount(CountStrategy{})
	first, second := apply(zero), apply(zero)
	if first.memo == nil || first.memo != second.memo {
		t.Error("WithCount of the zero value holds no memo of its own for every call")
	}
	if first.String() != (CountStrategy{}).String() {
		t.Errorf("WithCount changed the zero value's strategy to %s", first)
	}
	// An estimate keeps the planner's answers in its memo; a strategy
	// that never estimates needs none.
	estimate := WithCount(CountEstimate)
	if m := apply(estimate).memo; m == nil || m != apply(estimate).memo {
		t.Error("WithCount of CountEstimate holds no memo of its own for every call")
	}
	for _, s := range []CountStrategy{CountExact, CountNone, CountCapped(10)} {
		if apply(WithCount(s)).memo != nil {
			t.Errorf("WithCount gave %s a memo", s)
		}
	}
}
