package ratelimit

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/golang-lru/v2/simplelru"
)

// EntryBytes is the memory one counter of a MemoryStore is budgeted at,
// for a key of up to MaxKeyLen bytes: the LRU entry (list links, key
// header, the counter and the library's unused expiry fields: 88 bytes,
// a 96-byte allocation), the key's bytes (at most 64), and its slot in the
// Go map of the LRU (24 bytes plus control bytes, up to twice that while
// the map is between sizes): about 220 bytes, rounded up.
// TestMemoryStoreEntryBytes measures it.
const EntryBytes = 256

// DefaultMemoryBudget is the byte budget of the memory store New makes
// when Config.Store is nil: 8 MiB, 32,768 counters.
const DefaultMemoryBudget = 8 << 20

// MemoryStore keeps counters in this process, in an LRU of at most
// budget / EntryBytes entries: once full, a new key evicts the one used
// least recently, so unique keys can never grow it. An evicted key starts
// again from zero, which an attacker could only reach by holding more
// distinct keys (addresses) than the store has entries.
type MemoryStore struct {
	mu  sync.Mutex
	lru *simplelru.LRU[string, counter]
	cap int
}

// counter is one key's window.
type counter struct {
	hits  int
	reset int64 // unix nanoseconds
}

// NewMemoryStore returns a store whose counters take at most about
// budgetBytes (EntryBytes each, at least one entry).
func NewMemoryStore(budgetBytes int) *MemoryStore {
	n := max(1, budgetBytes/EntryBytes)
	lru, err := simplelru.NewLRU[string, counter](n, nil)
	if err != nil {
		panic("ratelimit: " + err.Error()) // n is positive
	}
	return &MemoryStore{lru: lru, cap: n}
}

// Hit implements Store. Keys longer than MaxKeyLen are hashed, so the
// budget holds whatever the caller passes; a done ctx is an error.
func (s *MemoryStore) Hit(ctx context.Context, key string, window time.Duration, now time.Time) (int, time.Time, error) {
	if err := ctx.Err(); err != nil {
		return 0, time.Time{}, err
	}
	key = boundKey(key)
	t := now.UnixNano()
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.lru.Get(key)
	if ok && t < c.reset {
		c.hits++
	} else {
		c = counter{hits: 1, reset: now.Add(window).UnixNano()}
	}
	if !ok {
		// The key may alias a buffer its caller reuses (an unsafe string
		// of a request): the store keeps a copy.
		key = strings.Clone(key)
	}
	s.lru.Add(key, c)
	return c.hits, time.Unix(0, c.reset), nil
}

// Peek returns the count of key's window at now and when it ends, without
// counting: 0 when the key has none running. It does not refresh the key.
func (s *MemoryStore) Peek(key string, now time.Time) (hits int, reset time.Time) {
	key = boundKey(key)
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.lru.Peek(key)
	if !ok || now.UnixNano() >= c.reset {
		return 0, time.Time{}
	}
	return c.hits, time.Unix(0, c.reset)
}

// Len returns how many keys the store holds.
func (s *MemoryStore) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lru.Len()
}

// Cap returns how many keys the store holds at most.
func (s *MemoryStore) Cap() int { return s.cap }
