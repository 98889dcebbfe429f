package ratelimit

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"time"
)

// Store keeps the counters of the limiter.
type Store interface {
	// Hit counts one request under key in the fixed window that contains
	// now and returns the count so far and when the window ends. A key
	// whose window ended (or that is new) starts a window of the given
	// length at now with a count of 1. Keys are at most MaxKeyLen bytes.
	// It must honour ctx's deadline.
	Hit(ctx context.Context, key string, window time.Duration, now time.Time) (hits int, reset time.Time, err error)
}

// MaxKeyLen is the longest key the limiter hands a Store: it fits a
// VARCHAR(64) column. Longer keys are hashed (see boundKey).
const MaxKeyLen = 64

// boundKey returns key when it fits MaxKeyLen, else "#" followed by the
// unpadded base64url SHA-256 of key: 44 bytes, and no key that fits starts
// with "#" unless its scope does.
func boundKey(key string) string {
	if len(key) <= MaxKeyLen {
		return key
	}
	sum := sha256.Sum256([]byte(key))
	return "#" + base64.RawURLEncoding.EncodeToString(sum[:])
}
