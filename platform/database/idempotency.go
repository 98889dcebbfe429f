package database

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/platform/idempotency"
)

// IdempotencyTable is the table IdempotencyKeys keeps its keys in: id
// VARCHAR(64) PRIMARY KEY (the claim's ID), fingerprint VARCHAR(64),
// status INTEGER (0 while the first request runs), header TEXT, body (BYTEA
// or BLOB), locked_until and expires_at BIGINT (Unix milliseconds), indexed
// by expires_at. The service's migrations create it.
const IdempotencyTable = "idempotency_keys"

// claimQuery claims a key in one statement on PostgreSQL and SQLite (3.35
// or later): a new key is inserted as running; a key that expired, or whose
// claimant's lease ended and that a retry of the same request asks for, is
// taken over. Any other key is left as it is, and no row is returned.
// Concurrent claims of one key serialise on its row: one wins.
const claimQuery = `INSERT INTO idempotency_keys (id, fingerprint, status, header, body, locked_until, expires_at)
VALUES (?, ?, 0, NULL, NULL, ?, ?)
ON CONFLICT (id) DO UPDATE SET
	fingerprint = excluded.fingerprint, status = 0, header = NULL, body = NULL,
	locked_until = excluded.locked_until, expires_at = excluded.expires_at
WHERE idempotency_keys.expires_at <= ?
	OR (idempotency_keys.status = 0 AND idempotency_keys.locked_until <= ? AND idempotency_keys.fingerprint = excluded.fingerprint)
RETURNING id`

// IdempotencyKeys keeps the keys of idempotent requests in the database,
// shared by every instance on it: an idempotency.Store. Expired keys stay
// until Sweep deletes them; call it every minute or so.
type IdempotencyKeys struct {
	db bun.IDB
}

// The keys are an idempotency.Store.
var _ idempotency.Store = (*IdempotencyKeys)(nil)

// NewIdempotencyKeys returns the keys in db's IdempotencyTable.
func NewIdempotencyKeys(db bun.IDB) *IdempotencyKeys {
	return &IdempotencyKeys{db: db}
}

// Claim claims c.ID, or returns the record of the request that holds it:
// one statement when the key is new, two when it is not.
func (k *IdempotencyKeys) Claim(ctx context.Context, c idempotency.Claim) (idempotency.Record, bool, error) {
	now := c.Now.UnixMilli()
	// A key swept between the two statements is claimed on the next turn.
	for range 2 {
		var id string
		err := k.db.NewRaw(claimQuery, c.ID, c.Fingerprint, c.Now.Add(c.Lease).UnixMilli(), c.Now.Add(c.TTL).UnixMilli(), now, now).Scan(ctx, &id)
		switch {
		case err == nil:
			return idempotency.Record{Fingerprint: c.Fingerprint}, true, nil
		case !errors.Is(err, sql.ErrNoRows):
			return idempotency.Record{}, false, fmt.Errorf("database: claim an idempotency key: %w", err)
		}
		var (
			rec    idempotency.Record
			header sql.NullString
		)
		err = k.db.NewRaw(`SELECT fingerprint, status, header, body FROM idempotency_keys WHERE id = ?`, c.ID).
			Scan(ctx, &rec.Fingerprint, &rec.Status, &header, &rec.Body)
		switch {
		case err == nil:
			rec.Done, rec.Header = rec.Status != 0, []byte(header.String)
			return rec, false, nil
		case !errors.Is(err, sql.ErrNoRows):
			return idempotency.Record{}, false, fmt.Errorf("database: read an idempotency key: %w", err)
		}
	}
	return idempotency.Record{}, false, fmt.Errorf("database: claim an idempotency key: %s is swept and taken in turn", c.ID)
}

// Complete stores the answer of the running key id.
func (k *IdempotencyKeys) Complete(ctx context.Context, id string, rec idempotency.Record) error {
	_, err := k.db.NewRaw(`UPDATE idempotency_keys SET status = ?, header = ?, body = ? WHERE id = ? AND status = 0`,
		rec.Status, string(rec.Header), rec.Body, id).Exec(ctx)
	if err != nil {
		return fmt.Errorf("database: store an idempotent answer: %w", err)
	}
	return nil
}

// Release deletes the running key id.
func (k *IdempotencyKeys) Release(ctx context.Context, id string) error {
	if _, err := k.db.NewRaw(`DELETE FROM idempotency_keys WHERE id = ? AND status = 0`, id).Exec(ctx); err != nil {
		return fmt.Errorf("database: release an idempotency key: %w", err)
	}
	return nil
}

// Sweep deletes the keys that expired by now and returns how many it
// deleted.
func (k *IdempotencyKeys) Sweep(ctx context.Context, now time.Time) (int64, error) {
	return sweep(ctx, k.db, IdempotencyTable, "expires_at", now)
}
