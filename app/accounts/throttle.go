package accounts

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/asapjs/fiber-template/app/repositories"
)

// Login throttling: at most LoginFailuresMax failed logins per account and
// client address within loginFailureWindow.
const (
	LoginFailuresMax   = 5
	loginFailureWindow = 15 * time.Minute
)

// Throttled is the error of a login past the limit: its account and
// address may try again after Wait.
type Throttled struct {
	Wait time.Duration
	// InFlight is true when the wait is for logins still being checked,
	// not for the window to forget failures.
	InFlight bool
}

func (e *Throttled) Error() string {
	return fmt.Sprintf("accounts: too many failed logins; try again in %s", e.Wait.Round(time.Second))
}

// LoginThrottle counts failed logins per account and client address in the
// database, so that the limit holds across instances.
type LoginThrottle struct {
	failures *repositories.LoginFailures
	// checkWithin bounds how long a login's password check can take: a
	// login pending for longer ended without saying how, and counts as a
	// failure.
	checkWithin time.Duration
	// now is the throttle's clock: time.Now, or a fixed one in tests.
	now func() time.Time
}

// NewLoginThrottle returns the throttle over the failures repository;
// checkWithin bounds how long a login's password check can take (the
// request deadline).
func NewLoginThrottle(failures *repositories.LoginFailures, checkWithin time.Duration) *LoginThrottle {
	return &LoginThrottle{failures: failures, checkWithin: checkWithin, now: time.Now}
}

// Prune deletes the failed logins that no longer count at now: those
// older than the throttle's window.
func (t *LoginThrottle) Prune(ctx context.Context, now time.Time) error {
	return t.failures.Prune(ctx, now.Add(-loginFailureWindow))
}

// Attempt is a login counted against its account and address while its
// password is checked: it ends as Succeeded, Failed, or Abandon when its
// password was not checked.
type Attempt struct {
	t              *LoginThrottle
	id             int64
	email, address string
}

// Begin counts a login for email from address as failed before its
// password is checked, so that concurrent guesses count against each other:
// of any number sent at once, at most LoginFailuresMax get a password
// checked. Past the limit it returns a *Throttled, whatever the password
// this time, whose Wait is when a login may pass again: when the window
// forgets the oldest failure or, while logins are still being checked,
// when the last of them has ended, since a success forgets them all.
// address is the client's canonical key (clientip.Key), so a client cannot
// pick a fresh one per guess.
func (t *LoginThrottle) Begin(ctx context.Context, email, address string) (*Attempt, error) {
	now := t.now()
	id, n, oldest, pending, err := t.failures.Counted(ctx, email, address, now, now.Add(-loginFailureWindow))
	if err != nil {
		return nil, err
	}
	a := &Attempt{t: t, id: id, email: email, address: address}
	if n <= LoginFailuresMax {
		return a, nil
	}
	// Refused attempts are not counted, so a flood does not grow the table.
	if err := a.Abandon(ctx, nil); err != nil {
		return nil, err
	}
	th := &Throttled{Wait: oldest.Add(loginFailureWindow).Sub(now)}
	// The logins still being checked may succeed, which forgets every
	// failure: a login may pass once the last of them has ended.
	if ends := pending.Add(t.checkWithin).Sub(now); !pending.IsZero() && ends > 0 && ends < th.Wait {
		th.Wait, th.InFlight = ends, true
	}
	return nil, th
}

// Succeeded forgets the failures of the attempt's account and address.
func (a *Attempt) Succeeded(ctx context.Context) error {
	return a.t.failures.Clear(ctx, a.email, a.address)
}

// Failed records the attempt as a failed login: its password was wrong.
// It runs even when ctx is done, as Abandon does.
func (a *Attempt) Failed(ctx context.Context) error {
	return a.t.failures.Failed(context.WithoutCancel(ctx), a.id)
}

// Abandon uncounts an attempt whose password was not checked (refused,
// or the service was busy or failed with cause) and returns cause, joined
// with the error of uncounting if that failed too. It runs even when ctx
// is done, since the request's failure may be its deadline.
func (a *Attempt) Abandon(ctx context.Context, cause error) error {
	if err := a.t.failures.Remove(context.WithoutCancel(ctx), a.id); err != nil {
		return errors.Join(cause, err)
	}
	return cause
}
