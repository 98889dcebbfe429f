package dbscale

import (
	"context"
	"testing"
)

// TestRawPgxKeepsItsConnectionsAfterACount holds the raw pgx baseline to
// the service's count strategy: a count within the budget leaves its
// connection in the pool (only a count over the budget, which a late
// cancel request could reach, closes it), so that the baseline does not
// pay a new connection for every page with a count.
func TestRawPgxKeepsItsConnectionsAfterACount(t *testing.T) {
	ctx := context.Background()
	dsn, _ := seeded(t, ctx, 200)
	pool, cursors := rawPool(t, ctx, dsn, 4)
	raw := newRawList(pool, cursors)
	for _, sc := range []scenario{{name: "page 0"}, {name: "role", role: "admin"}, {name: "q", q: "smith"}} {
		for range 10 {
			if _, err := raw.list(ctx, sc); err != nil {
				t.Fatalf("%s: %v", sc.name, err)
			}
		}
	}
	// The page and its count run at once: two connections, and never
	// more than the pool's four.
	if n := pool.Stat().NewConnsCount(); n > 4 {
		t.Errorf("30 pages with a count opened %d connections", n)
	}
}
