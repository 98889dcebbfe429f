package controllers

import (
	"context"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/app/repositories"
	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/problem"
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

// allow returns a 429 problem, with Retry-After set on fc, when email from
// address has failed too often lately, whatever the password this time.
func (t *LoginThrottle) allow(ctx context.Context, fc *fiber.Ctx, email, address string) error {
	now := time.Now()
	n, oldest, err := t.failures.Recent(database.OnPrimary(ctx), email, address, now.Add(-loginFailureWindow))
	if err != nil {
		return err
	}
	if n < loginFailuresMax {
		return nil
	}
	wait := max(1, int(math.Ceil(oldest.Add(loginFailureWindow).Sub(now).Seconds())))
	fc.Set(fiber.HeaderRetryAfter, strconv.Itoa(wait))
	return ErrTooManyRequests.WithDetail("Too many failed logins for this account from this address; try again in %d seconds.", wait)
}

// failed records a failed login.
func (t *LoginThrottle) failed(ctx context.Context, email, address string) error {
	return t.failures.Add(ctx, email, address, time.Now())
}

// succeeded forgets the failures of email from address.
func (t *LoginThrottle) succeeded(ctx context.Context, email, address string) error {
	return t.failures.Clear(ctx, email, address)
}
