package idempotency

import (
	"context"
	"time"
)

// Claim asks for a key: the first request with it runs, every later one
// meets the Record of the first.
type Claim struct {
	// ID names the key: a digest of the caller, the route and the key the
	// client sent, so that callers and routes never share keys.
	ID string
	// Fingerprint is a digest of the request: a retry must have the same.
	Fingerprint string
	// Now is the time of the claim.
	Now time.Time
	// Lease is how long the claimant may run before another request with
	// the same key and fingerprint may take the key over (its process died).
	Lease time.Duration
	// TTL is how long the key is kept.
	TTL time.Duration
}

// Record is what the store keeps of a key.
type Record struct {
	// Fingerprint is the digest of the request that claimed the key.
	Fingerprint string
	// Done reports a completed answer; until then the first request is
	// still running.
	Done bool
	// Status is the status code of the stored answer.
	Status int
	// Header is the stored answer's headers worth replaying, as a JSON
	// object of names to values.
	Header []byte
	// Body is the stored answer's body.
	Body []byte
}

// Store keeps the keys of idempotent requests for every instance.
type Store interface {
	// Claim inserts a new key as running and reports claimed; a key that
	// expired, or whose claimant's lease ended with the same fingerprint,
	// is claimed anew. Otherwise it returns the key's Record unchanged.
	Claim(ctx context.Context, c Claim) (rec Record, claimed bool, err error)
	// Complete stores the answer of the key's claimant.
	Complete(ctx context.Context, id string, rec Record) error
	// Release forgets a key whose request did not complete, so that a
	// retry runs again.
	Release(ctx context.Context, id string) error
}
