package router

import (
	"sync"
	"time"
)

// tokenCache remembers verified tokens until they expire, so a client
// sending the same token again costs a map look-up instead of an HMAC and a
// JSON decode. It is bounded: when full it drops the expired entries, and if
// none expired, everything.
type tokenCache struct {
	mu      sync.RWMutex
	max     int
	entries map[string]*Claims
	now     func() time.Time
}

func newTokenCache(max int) *tokenCache {
	if max < 0 {
		return nil
	}
	return &tokenCache{max: max, entries: make(map[string]*Claims, 64), now: time.Now}
}

// get returns the claims of a cached, unexpired token, or nil.
func (c *tokenCache) get(raw []byte) *Claims {
	if c == nil {
		return nil
	}
	c.mu.RLock()
	claims := c.entries[string(raw)]
	c.mu.RUnlock()
	if claims == nil {
		return nil
	}
	now := c.now()
	if !now.Before(claims.ExpiresAt.Time) || claims.NotBefore != nil && now.Before(claims.NotBefore.Time) {
		return nil
	}
	return claims
}

// put caches the claims of a verified token.
func (c *tokenCache) put(raw string, claims *Claims) {
	if c == nil || claims.ExpiresAt == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= c.max {
		now := c.now()
		for k, v := range c.entries {
			if !now.Before(v.ExpiresAt.Time) {
				delete(c.entries, k)
			}
		}
		if len(c.entries) >= c.max {
			clear(c.entries)
		}
	}
	c.entries[raw] = claims
}

// len returns the number of cached tokens.
func (c *tokenCache) len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.entries)
}
