package ratelimit_test

import (
	"context"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asapjs/fiber-template/platform/ratelimit"
)

func TestMemoryStoreCounts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	start := time.Unix(1_700_000_000, 0)
	s := ratelimit.NewMemoryStore(1 << 20)
	steps := []struct {
		key   string
		at    time.Duration
		hits  int
		reset time.Duration
	}{
		{"a", 0, 1, time.Minute},
		{"a", 30 * time.Second, 2, time.Minute},
		{"b", 30 * time.Second, 1, 90 * time.Second},
		{"a", time.Minute - 1, 3, time.Minute},
		{"a", time.Minute, 1, 2 * time.Minute},
	}
	for i, st := range steps {
		hits, reset, err := s.Hit(ctx, st.key, time.Minute, start.Add(st.at))
		if err != nil || hits != st.hits || !reset.Equal(start.Add(st.reset)) {
			t.Errorf("step %d: Hit(%s) = %d, %s, %v; want %d, %s", i, st.key, hits, reset.Sub(start), err, st.hits, st.reset)
		}
	}
	if hits, reset := s.Peek("a", start.Add(time.Minute)); hits != 1 || !reset.Equal(start.Add(2*time.Minute)) {
		t.Errorf("Peek = %d, %s", hits, reset)
	}
	if hits, _ := s.Peek("a", start.Add(2*time.Minute)); hits != 0 {
		t.Errorf("Peek after the window = %d, want 0", hits)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, _, err := s.Hit(cancelled, "a", time.Minute, start); err == nil {
		t.Error("Hit with a done context succeeded")
	}
}

func TestMemoryStoreConcurrentHitsCountEach(t *testing.T) {
	t.Parallel()
	s := ratelimit.NewMemoryStore(1 << 20)
	const n = 200
	seen := make([]bool, n+1)
	var mu sync.Mutex
	var wg sync.WaitGroup
	now := time.Now()
	for range n {
		wg.Go(func() {
			hits, _, err := s.Hit(context.Background(), "k", time.Minute, now)
			if err != nil || hits < 1 || hits > n {
				t.Errorf("Hit = %d, %v", hits, err)
				return
			}
			mu.Lock()
			seen[hits] = true
			mu.Unlock()
		})
	}
	wg.Wait()
	for i := 1; i <= n; i++ {
		if !seen[i] {
			t.Fatalf("no Hit returned %d: counts were lost", i)
		}
	}
}

func TestMemoryStoreStaysBounded(t *testing.T) {
	t.Parallel()
	cases := []struct {
		budget, want int
	}{
		{ratelimit.DefaultMemoryBudget, ratelimit.DefaultMemoryBudget / ratelimit.EntryBytes},
		{1 << 20, 4096},
		{1, 1},
	}
	for _, tc := range cases {
		t.Run(strconv.Itoa(tc.budget), func(t *testing.T) {
			t.Parallel()
			s := ratelimit.NewMemoryStore(tc.budget)
			if s.Cap() != tc.want {
				t.Fatalf("Cap = %d, want %d", s.Cap(), tc.want)
			}
			ctx, now := context.Background(), time.Now()
			const keys = 1_000_000
			var buf []byte
			for i := range keys {
				buf = strconv.AppendInt(append(buf[:0], "auth:"...), int64(i), 10)
				if _, _, err := s.Hit(ctx, string(buf), time.Minute, now); err != nil {
					t.Fatal(err)
				}
				if i%100_000 == 0 && s.Len() > s.Cap() {
					t.Fatalf("after %d keys the store holds %d, over its %d", i+1, s.Len(), s.Cap())
				}
			}
			if s.Len() != s.Cap() {
				t.Errorf("after %d keys the store holds %d, want its %d", keys, s.Len(), s.Cap())
			}
			// The most recent key is kept, the first long evicted.
			if hits, _ := s.Peek(string(buf), now); hits != 1 {
				t.Errorf("the last key has %d hits", hits)
			}
			if tc.want > 1 {
				if hits, _ := s.Peek("auth:0", now); hits != 0 {
					t.Errorf("the first key is still held")
				}
			}
		})
	}
}

// TestMemoryStoreEntryBytes checks EntryBytes against the heap a full
// store of the longest keys takes. It runs alone: it reads the heap.
func TestMemoryStoreEntryBytes(t *testing.T) {
	const n = 100_000
	heap := func() uint64 {
		var m runtime.MemStats
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := heap()
	s := ratelimit.NewMemoryStore(n * ratelimit.EntryBytes)
	ctx, now := context.Background(), time.Now()
	pad := strings.Repeat("k", ratelimit.MaxKeyLen-8)
	for i := range n {
		key := pad + strconv.FormatInt(int64(10_000_000+i), 10) // 64 bytes
		if _, _, err := s.Hit(ctx, key, time.Minute, now); err != nil {
			t.Fatal(err)
		}
	}
	after := heap()
	per := float64(after-before) / n
	t.Logf("%.0f bytes per entry with %d-byte keys (budgeted %d)", per, ratelimit.MaxKeyLen, ratelimit.EntryBytes)
	if s.Len() != n {
		t.Fatalf("the store holds %d, want %d", s.Len(), n)
	}
	if per > ratelimit.EntryBytes {
		t.Errorf("an entry takes %.0f bytes, over EntryBytes (%d)", per, ratelimit.EntryBytes)
	}
	runtime.KeepAlive(s)
}
