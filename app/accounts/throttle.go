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
}

func (e *Throttled) Error() string {
	return fmt.Sprintf("accounts: too many failed logins; try again in %s", e.Wait.Round(time.Second))
}

// LoginThrottle counts failed logins per account and client address in the
// database, so that the limit holds across instances.
type LoginThrottle struct {
	failures *repositories.LoginFailures
}

// NewLoginThrottle returns the throttle over the failures repository.
func NewLoginThrottle(failures *repositories.LoginFailures) *LoginThrottle {
	return &LoginThrottle{failures: failures}
}

// Prune deletes the failed logins that no longer count at now: those
// older than the throttle's window.
func (t *LoginThrottle) Prune(ctx context.Context, now time.Time) error {
	return t.failures.Prune(ctx, now.Add(-loginFailureWindow))
}

// Attempt is a login counted against its account and address while its
// password is checked: it ends as Succeeded, or Abandon when its password
// was not checked.
type Attempt struct {
	t              *LoginThrottle
	id             int64
	email, address string
}

// Begin counts a login for email from address as failed before its
// password is checked, so that concurrent guesses count against each other:
// of any number sent at once, at most LoginFailuresMax get a password
// checked. Past the limit it returns a *Throttled, whatever the password
// this time. address is the client's canonical key (clientip.Key), so a
// client cannot pick a fresh one per guess.
func (t *LoginThrottle) Begin(ctx context.Context, email, address string) (*Attempt, error) {
	now := time.Now()
	id, err := t.failures.Add(ctx, email, address, now)
	if err != nil {
		return nil, err
	}
	a := &Attempt{t: t, id: id, email: email, address: address}
	n, oldest, err := t.failures.Recent(ctx, email, address, now.Add(-loginFailureWindow))
	if err != nil {
		return nil, a.Abandon(ctx, err)
	}
	if n <= LoginFailuresMax {
		return a, nil
	}
	// Refused attempts are not counted, so a flood does not grow the table.
	if err := a.Abandon(ctx, nil); err != nil {
		return nil, err
	}
	return nil, &Throttled{Wait: oldest.Add(loginFailureWindow).Sub(now)}
}

// Succeeded forgets the failures of the attempt's account and address.
func (a *Attempt) Succeeded(ctx context.Context) error {
	return a.t.failures.Clear(ctx, a.email, a.address)
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
