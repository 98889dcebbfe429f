package integration

import (
	"context"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/app/accounts"
	"github.com/asapjs/fiber-template/app/models"
	"github.com/asapjs/fiber-template/app/repositories"
	"github.com/asapjs/fiber-template/tests/integration/pgtest"
)

// TestThrottleCountsFailuresThatCommitOutOfOrder plays the race of two
// guesses sent at once on PostgreSQL, whose ids are handed out before
// their rows commit: guess A takes the smaller id but commits after guess
// B has counted. B sees the 4 earlier failures and itself, 5, and may
// check its password; A, once committed, must see 6 and be refused, or 6
// passwords get checked where the limit is 5.
func TestThrottleCountsFailuresThatCommitOutOfOrder(t *testing.T) {
	t.Parallel()
	db := openMigrated(t, pgtest.NewDatabase(t))
	ctx := t.Context()
	failures := repositories.NewLoginFailures(db)
	throttle := accounts.NewLoginThrottle(failures, 10*time.Second)
	const email, address = "raced@example.com", "192.0.2.7"
	for i := range accounts.LoginFailuresMax - 1 {
		if _, err := throttle.Begin(ctx, email, address); err != nil {
			t.Fatalf("guess %d: %v", i+1, err)
		}
	}
	// A's failure: inserted, its id taken, not yet committed.
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback() //nolint:errcheck // committed below
	a := &models.LoginFailure{Email: email, Address: address, FailedAt: time.Now()}
	if _, err := tx.NewInsert().Model(a).Returning("id").Exec(ctx); err != nil {
		t.Fatal(err)
	}
	// B: a larger id, committed, counted while A is not.
	if _, err := throttle.Begin(ctx, email, address); err != nil {
		t.Fatalf("guess B, the 5th: %v, want it checked", err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	// A counts now, as its Begin would after its insert.
	n, _, _, err := failures.Recent(ctx, email, address, time.Now().Add(-time.Hour), a.ID)
	if err != nil || n != accounts.LoginFailuresMax+1 {
		t.Fatalf("guess A counts %d failures (%v), want %d: B's, committed after A's id was taken, too", n, err, accounts.LoginFailuresMax+1)
	}
	if got := countRows(ctx, t, db, email); got != int64(accounts.LoginFailuresMax+1) {
		t.Fatalf("%d failures recorded, want %d", got, accounts.LoginFailuresMax+1)
	}
}

// countRows counts the recorded failures of email.
func countRows(ctx context.Context, t *testing.T, db *bun.DB, email string) int64 {
	t.Helper()
	n, err := db.NewSelect().Model((*models.LoginFailure)(nil)).Where("email = ?", email).Count(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
