package database

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"time"
)

// estimateTTL is how long a strategy's memo keeps a query's estimate: the
// planner's statistics change slowly, and one EXPLAIN per query and
// instance every few seconds is cheap where one per request is not.
const estimateTTL = 10 * time.Second

// estimate returns the planner's row estimate of the query (never exact),
// from memo when it holds a fresh one. SQLite keeps no row estimate: there
// it is 0, which the page's lower bound raises.
func (c *counter) estimate(ctx context.Context, memo *budgetMemo) (int, bool, error) {
	if DialectOfDB(c.db) != Postgres {
		return 0, false, nil
	}
	sql, err := c.render()
	if err != nil {
		return 0, false, err
	}
	key, now := memoKey{db: c.db, sql: sql}, time.Now()
	if n, ok := memo.estimate(key, now); ok {
		return n, false, nil
	}
	// The text runs as it is, on the connection base's reads go to: Bun's
	// query methods would read any ? in the rendered values as a
	// placeholder.
	var plan []byte
	if err := c.reader(ctx).QueryRowContext(ctx, "EXPLAIN (FORMAT JSON) "+sql).Scan(&plan); err != nil {
		return 0, false, fmt.Errorf("estimate the count: %w", err)
	}
	rows, err := planRows(plan)
	if err != nil {
		return 0, false, fmt.Errorf("estimate the count: %w", err)
	}
	memo.keepEstimate(key, rows, now)
	return rows, false, nil
}

// planRows reads the top node's row estimate from EXPLAIN (FORMAT JSON).
func planRows(plan []byte) (int, error) {
	var out []struct {
		Plan struct {
			Rows float64 `json:"Plan Rows"`
		} `json:"Plan"`
	}
	if err := json.Unmarshal(plan, &out); err != nil {
		return 0, fmt.Errorf("read the plan: %w", err)
	}
	if len(out) == 0 {
		return 0, fmt.Errorf("the plan is empty")
	}
	return int(math.Min(out[0].Plan.Rows, math.MaxInt32)), nil
}
