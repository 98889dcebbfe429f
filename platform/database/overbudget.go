package database

import (
	"sync"
	"time"

	"github.com/uptrace/bun"
)

// How long and how many over-budget queries CountAuto remembers.
const (
	overBudgetTTL = time.Minute
	overBudgetMax = 1024
)

// memoKey is one query on one database.
type memoKey struct {
	db  *bun.DB
	sql string
}

// budgetMemo remembers the queries whose exact count ran out of budget, so
// CountAuto estimates them at once instead of spending the budget on every
// request, and the planner's estimates of queries for a few seconds. Each
// map is bounded: when full, expired entries go first, then any.
type budgetMemo struct {
	mu        sync.Mutex
	until     map[memoKey]time.Time
	estimates map[memoKey]estimated
}

// estimated is a planner estimate and when it expires.
type estimated struct {
	rows  int
	until time.Time
}

// newBudgetMemo returns an empty memo; its map is made on the first add,
// as most queries never run out of budget.
func newBudgetMemo() *budgetMemo { return &budgetMemo{} }

// recent reports whether the query ran out of budget less than
// overBudgetTTL before now; a nil memo remembers nothing.
func (m *budgetMemo) recent(k memoKey, now time.Time) bool {
	if m == nil {
		return false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	until, ok := m.until[k]
	return ok && now.Before(until)
}

// add remembers that the query ran out of budget at now; a nil memo
// remembers nothing.
func (m *budgetMemo) add(k memoKey, now time.Time) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.until == nil {
		m.until = make(map[memoKey]time.Time)
	}
	makeRoom(m.until, now, func(until time.Time) time.Time { return until })
	m.until[k] = now.Add(overBudgetTTL)
}

// estimate returns the query's estimate if one is kept and fresh at now.
func (m *budgetMemo) estimate(k memoKey, now time.Time) (int, bool) {
	if m == nil {
		return 0, false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.estimates[k]
	return e.rows, ok && now.Before(e.until)
}

// keepEstimate keeps the query's estimate, made at now, for estimateTTL;
// a nil memo keeps nothing.
func (m *budgetMemo) keepEstimate(k memoKey, rows int, now time.Time) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.estimates == nil {
		m.estimates = make(map[memoKey]estimated)
	}
	makeRoom(m.estimates, now, func(e estimated) time.Time { return e.until })
	m.estimates[k] = estimated{rows: rows, until: now.Add(estimateTTL)}
}

// makeRoom leaves room for one more entry in a memo map: when it is full,
// the entries expired at now go, then any until there is room.
func makeRoom[V any](m map[memoKey]V, now time.Time, expiry func(V) time.Time) {
	if len(m) < overBudgetMax {
		return
	}
	for key, v := range m {
		if !now.Before(expiry(v)) {
			delete(m, key)
		}
	}
	for key := range m {
		if len(m) < overBudgetMax {
			break
		}
		delete(m, key)
	}
}
