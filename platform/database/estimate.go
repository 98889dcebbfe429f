package database

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
)

// estimate returns the planner's row estimate of the query, raised to the
// lower bound the page shows; never exact. SQLite keeps no row estimate,
// so there it is the lower bound alone.
func (c *counter) estimate(ctx context.Context, k known) (int, bool, error) {
	if DialectOfDB(c.db) != Postgres {
		return k.lowerBound(), false, nil
	}
	sql, err := c.render()
	if err != nil {
		return 0, false, err
	}
	// The embedded *sql.DB runs the text as it is: Bun's own methods would
	// read any ? in the rendered values as a placeholder.
	var plan []byte
	if err := c.db.DB.QueryRowContext(ctx, "EXPLAIN (FORMAT JSON) "+sql).Scan(&plan); err != nil {
		return 0, false, fmt.Errorf("estimate the count: %w", err)
	}
	rows, err := planRows(plan)
	if err != nil {
		return 0, false, fmt.Errorf("estimate the count: %w", err)
	}
	return max(rows, k.lowerBound()), false, nil
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
