package controllers

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/app/repositories"
	"github.com/asapjs/fiber-template/platform/problem"
	"github.com/asapjs/fiber-template/platform/ratelimit"
)

// ErrTooManyRequests answers a client over a limit: too many failed logins
// for an account, or too many requests to the public auth routes. The
// answer carries Retry-After.
var ErrTooManyRequests = problem.Declare(http.StatusTooManyRequests, "too_many_requests", "Too many requests")

// Login throttling: at most loginFailuresMax failed logins per account and
// client address within loginFailureWindow.
const (
	loginFailuresMax   = 5
	loginFailureWindow = 15 * time.Minute
)

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

// attempt is a login counted against its account and address while its
// password is checked.
type attempt struct {
	t              *LoginThrottle
	id             int64
	email, address string
}

// begin counts a login for email from address as failed before its
// password is checked, so that concurrent guesses count against each other:
// of any number sent at once, at most loginFailuresMax get a password
// checked. Past the limit it returns a 429 problem, with Retry-After and
// RateLimit-Limit, -Remaining (0) and -Reset set on fc, whatever the
// password this time. address is the client's canonical key
// (clientip.Key), so a client cannot pick a fresh one per guess.
func (t *LoginThrottle) begin(ctx context.Context, fc *fiber.Ctx, email, address string) (*attempt, error) {
	now := time.Now()
	id, err := t.failures.Add(ctx, email, address, now)
	if err != nil {
		return nil, err
	}
	a := &attempt{t: t, id: id, email: email, address: address}
	n, oldest, err := t.failures.Recent(ctx, email, address, now.Add(-loginFailureWindow), id)
	if err != nil {
		return nil, a.abandon(ctx, err)
	}
	if n <= loginFailuresMax {
		return a, nil
	}
	// Refused attempts are not counted, so a flood does not grow the table.
	if err := a.abandon(ctx, nil); err != nil {
		return nil, err
	}
	wait := ratelimit.Seconds(oldest.Add(loginFailureWindow).Sub(now))
	fc.Set(fiber.HeaderRetryAfter, strconv.Itoa(wait))
	ratelimit.SetHeaders(fc, loginFailuresMax, 0, wait)
	return nil, ErrTooManyRequests.WithDetail("Too many failed logins for this account from this address; try again in %d seconds.", wait)
}

// succeeded forgets the failures of the attempt's account and address.
func (a *attempt) succeeded(ctx context.Context) error {
	return a.t.failures.Clear(ctx, a.email, a.address)
}

// abandon uncounts an attempt whose password was not checked (refused,
// or the service was busy or failed with cause) and returns cause, joined
// with the error of uncounting if that failed too. It runs even when ctx
// is done, since the request's failure may be its deadline.
func (a *attempt) abandon(ctx context.Context, cause error) error {
	if err := a.t.failures.Remove(context.WithoutCancel(ctx), a.id); err != nil {
		return errors.Join(cause, err)
	}
	return cause
}
