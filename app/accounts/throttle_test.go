package accounts

import (
	"errors"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/app/models"
	"github.com/asapjs/fiber-template/app/repositories"
	"github.com/asapjs/fiber-template/migrations"
	"github.com/asapjs/fiber-template/platform/servicetest"
)

// throttleFixture is a login throttle over a fresh SQLite database.
type throttleFixture struct {
	t        *testing.T
	db       *bun.DB
	failures *repositories.LoginFailures
	throttle *LoginThrottle
}

func newThrottleFixture(t *testing.T) *throttleFixture {
	t.Helper()
	db := servicetest.SQLite(t)
	if err := migrations.Up(t.Context(), db); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	failures := repositories.NewLoginFailures(db)
	return &throttleFixture{t: t, db: db, failures: failures, throttle: NewLoginThrottle(failures, checkWithin)}
}

// at stops the throttle's clock at now.
func (f *throttleFixture) at(now time.Time) {
	f.throttle.now = func() time.Time { return now }
}

// try begins a login for email from address and returns the attempt and
// the error.
func (f *throttleFixture) try(email, address string) (*Attempt, error) {
	f.t.Helper()
	return f.throttle.Begin(f.t.Context(), email, address)
}

// fail begins n logins for email from address that all get their password
// checked and fail, or fails the test.
func (f *throttleFixture) fail(n int, email, address string) {
	f.t.Helper()
	for _, a := range f.begin(n, email, address) {
		if err := a.Failed(f.t.Context()); err != nil {
			f.t.Fatalf("failed: %v", err)
		}
	}
}

// begin begins n logins for email from address that all may have their
// password checked, and returns them in flight, or fails the test.
func (f *throttleFixture) begin(n int, email, address string) []*Attempt {
	f.t.Helper()
	attempts := make([]*Attempt, n)
	for i := range n {
		a, err := f.try(email, address)
		if err != nil {
			f.t.Fatalf("login %d of %s from %s: %v, want its password checked", i+1, email, address, err)
		}
		attempts[i] = a
	}
	return attempts
}

// failedAt records a failed login for email from address at at, or fails
// the test.
func (f *throttleFixture) failedAt(email, address string, at time.Time) {
	f.t.Helper()
	id, err := f.failures.Add(f.t.Context(), email, address, at)
	if err == nil {
		err = f.failures.Failed(f.t.Context(), id)
	}
	if err != nil {
		f.t.Fatalf("add failure: %v", err)
	}
}

// refused asserts that a login for email from address is refused, with a
// wait within [minWait, maxWait] seconds, for logins in flight or for the
// window as the wait says.
func (f *throttleFixture) refused(email, address string, minWait, maxWait int) {
	f.t.Helper()
	a, err := f.try(email, address)
	var th *Throttled
	if a != nil || !errors.As(err, &th) {
		f.t.Fatalf("login of %s from %s: attempt %v, error %v; want refused", email, address, a, err)
	}
	if wait := int(math.Ceil(th.Wait.Seconds())); wait < minWait || wait > maxWait {
		f.t.Errorf("wait %s, want [%d, %d] s", th.Wait, minWait, maxWait)
	}
	if inFlight := th.Wait <= checkWithin; th.InFlight != inFlight {
		f.t.Errorf("a wait of %s says in flight %t, want %t", th.Wait, th.InFlight, inFlight)
	}
}

// recorded is how many failures the database holds for email.
func (f *throttleFixture) recorded(email string) int {
	f.t.Helper()
	n, err := f.db.NewSelect().Model((*models.LoginFailure)(nil)).Where("email = ?", email).Count(f.t.Context())
	if err != nil {
		f.t.Fatalf("count login failures: %v", err)
	}
	return int(n)
}

const (
	victim   = "victim@example.com"
	attacker = "203.0.113.7"
	window   = int(loginFailureWindow / time.Second)
	// checkWithin bounds a password check in these tests.
	checkWithin = 10 * time.Second
)

func TestLoginThrottleRefusesTheSixthFailure(t *testing.T) {
	f := newThrottleFixture(t)
	f.fail(LoginFailuresMax, victim, attacker)
	f.refused(victim, attacker, window-5, window)
	f.refused(victim, attacker, window-5, window)
	if n := f.recorded(victim); n != LoginFailuresMax {
		t.Errorf("%d failures recorded after two refusals, want %d: refused attempts must not grow the table", n, LoginFailuresMax)
	}
}

func TestLoginThrottleCountsPerAccountAndAddress(t *testing.T) {
	f := newThrottleFixture(t)
	f.fail(LoginFailuresMax, victim, attacker)
	f.refused(victim, attacker, 1, window)
	// The account's owner elsewhere, and the attacker's other targets, are
	// not locked out by the attacker's guesses.
	f.fail(LoginFailuresMax, victim, "198.51.100.1")
	f.fail(LoginFailuresMax, "other@example.com", attacker)
}

func TestLoginThrottleForgetsOnSuccess(t *testing.T) {
	f := newThrottleFixture(t)
	f.fail(LoginFailuresMax-1, victim, attacker)
	a, err := f.try(victim, attacker)
	if err != nil {
		t.Fatalf("login %d: %v", LoginFailuresMax, err)
	}
	if err := a.Succeeded(t.Context()); err != nil {
		t.Fatalf("succeeded: %v", err)
	}
	if n := f.recorded(victim); n != 0 {
		t.Errorf("%d failures recorded after a success, want 0", n)
	}
	f.fail(LoginFailuresMax, victim, attacker)
	f.refused(victim, attacker, 1, window)
}

func TestLoginThrottleAbandonUncounts(t *testing.T) {
	f := newThrottleFixture(t)
	for range 2 * LoginFailuresMax {
		a, err := f.try(victim, attacker)
		if err != nil {
			t.Fatalf("an abandoned attempt was counted: %v", err)
		}
		cause := errors.New("busy")
		if err := a.Abandon(t.Context(), cause); !errors.Is(err, cause) {
			t.Fatalf("abandon returned %v, want its cause", err)
		}
	}
	if n := f.recorded(victim); n != 0 {
		t.Errorf("%d failures recorded after abandoned attempts, want 0", n)
	}
}

func TestLoginThrottleWindow(t *testing.T) {
	tests := []struct {
		name string
		ago  time.Duration // when the earlier failures happened
		// minWait and maxWait bound Retry-After, in seconds, of the login
		// after them, which is refused; both 0 when it is let through.
		minWait, maxWait int
	}{
		{"outside the window", loginFailureWindow + time.Minute, 0, 0},
		{"just outside the window", loginFailureWindow + 2*time.Second, 0, 0},
		{"ten minutes ago", 10 * time.Minute, 300 - 5, 300},
		{"just now", 0, window - 5, window},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newThrottleFixture(t)
			at := time.Now().Add(-tt.ago)
			for range LoginFailuresMax {
				f.failedAt(victim, attacker, at)
			}
			if tt.maxWait == 0 {
				f.fail(1, victim, attacker)
				return
			}
			f.refused(victim, attacker, tt.minWait, tt.maxWait)
		})
	}
}

func TestLoginThrottlePruneForgetsWhatNoLongerCounts(t *testing.T) {
	f := newThrottleFixture(t)
	now := time.Now()
	for _, ago := range []time.Duration{loginFailureWindow + time.Hour, loginFailureWindow + time.Second, loginFailureWindow - time.Minute, time.Second} {
		f.failedAt(victim, attacker, now.Add(-ago))
	}
	if err := f.throttle.Prune(t.Context(), now); err != nil {
		t.Fatalf("prune: %v", err)
	}
	if n := f.recorded(victim); n != 2 {
		t.Errorf("%d failures left after pruning, want the 2 within the window", n)
	}
	// The two left still count: three more failures reach the limit.
	f.fail(LoginFailuresMax-2, victim, attacker)
	f.refused(victim, attacker, 1, window)
}

func TestLoginThrottleWaitsForLoginsInFlight(t *testing.T) {
	checkSeconds := int(checkWithin / time.Second)
	t.Run("logins sent at once: the refused one may retry once they end", func(t *testing.T) {
		f := newThrottleFixture(t)
		inFlight := f.begin(LoginFailuresMax, victim, attacker)
		f.refused(victim, attacker, checkSeconds-5, checkSeconds)
		// One of them had the right password: every failure is forgotten.
		if err := inFlight[0].Succeeded(t.Context()); err != nil {
			t.Fatalf("succeeded: %v", err)
		}
		f.fail(1, victim, attacker)
	})
	t.Run("wrong passwords sent at once: the window, once they failed", func(t *testing.T) {
		f := newThrottleFixture(t)
		for _, a := range f.begin(LoginFailuresMax, victim, attacker) {
			if err := a.Failed(t.Context()); err != nil {
				t.Fatalf("failed: %v", err)
			}
		}
		f.refused(victim, attacker, window-5, window)
	})
	t.Run("a login pending past any check counts as a failure", func(t *testing.T) {
		f := newThrottleFixture(t)
		if _, err := f.failures.Add(t.Context(), victim, attacker, time.Now().Add(-checkWithin-time.Second)); err != nil {
			t.Fatalf("add: %v", err)
		}
		f.fail(LoginFailuresMax-1, victim, attacker)
		f.refused(victim, attacker, window-checkSeconds-5, window-checkSeconds)
	})
}

func TestLoginThrottleALoginPendingForItsWholeCheckHasFailed(t *testing.T) {
	now := time.Now().Truncate(time.Second)
	tests := []struct {
		name  string
		began time.Duration // how long before now the pending login began
		// wait is the refused login's Retry-After, in seconds: the pending
		// login's end while it may still succeed, else the window's.
		wait int
	}{
		{"a second of its check left", checkWithin - time.Second, 1},
		{"its check's bound reached exactly", checkWithin, window - 60},
		{"past its check's bound", checkWithin + time.Second, window - 60},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newThrottleFixture(t)
			f.at(now)
			for range LoginFailuresMax - 1 {
				f.failedAt(victim, attacker, now.Add(-time.Minute))
			}
			if _, err := f.failures.Add(t.Context(), victim, attacker, now.Add(-tt.began)); err != nil {
				t.Fatalf("add: %v", err)
			}
			f.refused(victim, attacker, tt.wait, tt.wait)
		})
	}
}

func TestLoginThrottleAbandonReportsAnAttemptLeftCounted(t *testing.T) {
	for _, cause := range []error{nil, errors.New("busy")} {
		t.Run(fmt.Sprint(cause), func(t *testing.T) {
			f := newThrottleFixture(t)
			a, err := f.try(victim, attacker)
			if err != nil {
				t.Fatalf("login: %v", err)
			}
			// The attempt cannot be uncounted: it goes on counting against
			// the account, and the caller must hear of it.
			if _, err := f.db.ExecContext(t.Context(), "DROP TABLE login_failures"); err != nil {
				t.Fatalf("drop: %v", err)
			}
			err = a.Abandon(t.Context(), cause)
			if err == nil || err == cause || (cause != nil && !errors.Is(err, cause)) {
				t.Errorf("abandon returned %v, want %v joined with the failure to uncount", err, cause)
			}
		})
	}
}
