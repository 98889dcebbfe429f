package router

import (
	"fmt"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

func TestTokenCacheIsBoundedAndHonoursExp(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_000_000, 0)
	c := newTokenCache(3)
	c.now = func() time.Time { return now }
	claims := func(ttl time.Duration) *Claims {
		return &Claims{RegisteredClaims: jwt.RegisteredClaims{ExpiresAt: jwt.NewNumericDate(now.Add(ttl))}}
	}
	c.put("short", claims(time.Second))
	c.put("long-1", claims(time.Hour))
	c.put("long-2", claims(time.Hour))
	if c.get([]byte("short")) == nil {
		t.Fatal("an unexpired token is not served")
	}
	now = now.Add(2 * time.Second)
	if c.get([]byte("short")) != nil {
		t.Fatal("an expired token is served from the cache")
	}
	c.put("long-3", claims(time.Hour))
	if c.len() != 3 || c.get([]byte("long-3")) == nil || c.get([]byte("long-1")) == nil {
		t.Fatalf("a full cache did not make room by dropping the expired entry (len %d)", c.len())
	}
	for i := range 10 {
		c.put(fmt.Sprint("more-", i), claims(time.Hour))
		if c.len() > 3 {
			t.Fatalf("cache grew to %d entries past its bound of 3", c.len())
		}
	}
	if newTokenCache(-1).get([]byte("x")) != nil {
		t.Fatal("a disabled cache served a token")
	}
}
