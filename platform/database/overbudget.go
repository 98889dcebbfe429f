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
// request. It is bounded: when full, expired entries go first, then any.
type budgetMemo struct {
	mu    sync.Mutex
	until map[memoKey]time.Time
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
	if len(m.until) >= overBudgetMax {
		for key, until := range m.until {
			if !now.Before(until) {
				delete(m.until, key)
			}
		}
	}
	for key := range m.until {
		if len(m.until) < overBudgetMax {
			break
		}
		delete(m.until, key)
	}
	m.until[k] = now.Add(overBudgetTTL)
}
