// Package idempotency holds what an idempotent route keeps of its first
// answer to an Idempotency-Key (draft-ietf-httpapi-idempotency-key-header)
// and the Store it is kept in. The router reads the key, claims it, runs
// the handler once and stores the answer; a retry with the same key and
// the same request gets the stored answer. platform/database implements
// the Store in a table every instance shares.
package idempotency
