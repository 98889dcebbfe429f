package database_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/platform/database"
)

// rateLimitDDL is the table as migrations/20251201000000_rate_limit_hits
// creates it.
const rateLimitDDL = `CREATE TABLE rate_limit_hits (
	"key" VARCHAR(64) PRIMARY KEY NOT NULL,
	hits INTEGER NOT NULL,
	reset_at BIGINT NOT NULL
)`

func openRateLimits(t *testing.T) (*bun.DB, *database.RateLimitCounters) {
	t.Helper()
	db := openSQLite(t)
	if _, err := db.ExecContext(t.Context(), rateLimitDDL); err != nil {
		t.Fatal(err)
	}
	return db, database.NewRateLimitCounters(db)
}

func TestRateLimitCounters(t *testing.T) {
	t.Parallel()
	_, c := openRateLimits(t)
	ctx := t.Context()
	start := time.UnixMilli(1_700_000_000_000)
	long := strings.Repeat("k", 64)
	steps := []struct {
		name  string
		key   string
		at    time.Duration
		hits  int
		reset time.Duration
	}{
		{"a new key starts a window", "auth:a", 0, 1, time.Minute},
		{"a hit in the window counts", "auth:a", 20 * time.Second, 2, time.Minute},
		{"another key counts apart", "auth:b", 30 * time.Second, 1, 90 * time.Second},
		{"the last millisecond of the window", "auth:a", time.Minute - time.Millisecond, 3, time.Minute},
		{"the window's end starts a new one", "auth:a", time.Minute, 1, 2 * time.Minute},
		{"a 64-byte key fits", long, 0, 1, time.Minute},
		{"and counts", long, time.Second, 2, time.Minute},
	}
	for _, s := range steps {
		hits, reset, err := c.Hit(ctx, s.key, time.Minute, start.Add(s.at))
		if err != nil || hits != s.hits || !reset.Equal(start.Add(s.reset)) {
			t.Errorf("%s: Hit = %d, %s, %v; want %d, %s", s.name, hits, reset.Sub(start), err, s.hits, s.reset)
		}
	}
}

func TestRateLimitCountersSweep(t *testing.T) {
	t.Parallel()
	db, c := openRateLimits(t)
	ctx := t.Context()
	start := time.UnixMilli(1_700_000_000_000)
	for i, key := range []string{"a", "b", "c"} {
		if _, _, err := c.Hit(ctx, key, time.Duration(i+1)*time.Minute, start); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		at            time.Duration
		deleted, left int64
	}{
		{59 * time.Second, 0, 3},
		{time.Minute, 1, 2},
		{time.Hour, 2, 0},
	}
	for _, tc := range cases {
		n, err := c.Sweep(ctx, start.Add(tc.at))
		if err != nil {
			t.Fatal(err)
		}
		left, err := db.NewSelect().TableExpr(database.RateLimitTable).Count(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n != tc.deleted || left != tc.left {
			t.Errorf("Sweep at +%s deleted %d leaving %d; want %d leaving %d", tc.at, n, left, tc.deleted, tc.left)
		}
	}
}

func TestRateLimitCountersHonourTheContext(t *testing.T) {
	t.Parallel()
	_, c := openRateLimits(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, _, err := c.Hit(ctx, "k", time.Minute, time.Now()); err == nil {
		t.Error("Hit with a cancelled context succeeded")
	}
}

func TestRateLimitCountersConcurrentHitsCountEach(t *testing.T) {
	t.Parallel()
	_, c := openRateLimits(t)
	const n = 40
	results := make(chan int, n)
	now := time.Now()
	for range n {
		go func() {
			hits, _, err := c.Hit(t.Context(), "k", time.Minute, now)
			if err != nil {
				t.Error(err)
			}
			results <- hits
		}()
	}
	seen := map[int]bool{}
	for range n {
		seen[<-results] = true
	}
	for i := 1; i <= n; i++ {
		if !seen[i] {
			t.Fatalf("no Hit returned %d: counts were lost (%v)", i, seen)
		}
	}
}
