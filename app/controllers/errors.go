package controllers

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/app/accounts"
	"github.com/asapjs/fiber-template/platform/problem"
	"github.com/asapjs/fiber-template/platform/ratelimit"
	"github.com/asapjs/fiber-template/platform/router"
)

// Errors the routes of the example service declare and return.
var (
	// ErrUserNotFound answers a user id that does not exist.
	ErrUserNotFound = problem.Declare(http.StatusNotFound, "user_not_found", "User not found")
	// ErrSessionNotFound answers a session id that is not one of the
	// caller's sessions that have not ended.
	ErrSessionNotFound = problem.Declare(http.StatusNotFound, "session_not_found", "Session not found")
	// ErrEmailTaken answers an email another user has, case aside.
	ErrEmailTaken = problem.Declare(http.StatusConflict, "email_taken", "Email already taken")
	// ErrInvalidCredentials answers every failed login alike: unknown
	// email, wrong password or inactive user.
	ErrInvalidCredentials = problem.Declare(http.StatusUnauthorized, "invalid_credentials", "Invalid credentials")
	// ErrInvalidGrant answers a refresh token that is unknown, expired,
	// revoked or reused, with the code OAuth2 uses for it.
	ErrInvalidGrant = problem.Declare(http.StatusUnauthorized, "invalid_grant", "Invalid grant")
	// ErrForbidden answers a caller acting on another user, or asking for
	// a role or flag only an admin may set: the platform's 403, the one
	// the router answers for a missing role, so clients branch on one code.
	ErrForbidden = problem.ErrForbidden
	// ErrLastAdmin answers a change that would leave no active admin.
	ErrLastAdmin = problem.Declare(http.StatusConflict, "last_admin", "Last active admin")
	// ErrTooManyRequests answers a client over a limit: too many failed
	// logins for an account, or too many requests to the public auth
	// routes. It is the platform's 429, the rate limiter's and the docs
	// guard's; the answer carries Retry-After.
	ErrTooManyRequests = problem.ErrTooManyRequests
	// ErrBusy answers a request whose password could not be hashed in
	// time because every hashing slot is taken; the router adds
	// Retry-After.
	ErrBusy = problem.Declare(http.StatusServiceUnavailable, "busy", "Too busy")
)

// accountError turns the errors of package accounts into answers: a busy
// hasher is a 503, a password over bcrypt's 72 bytes a 422 naming field (a
// validate max counts characters, not bytes), a throttled login a 429
// with Retry-After and the RateLimit headers set on c. Anything else goes
// on as it is.
func accountError(c *fiber.Ctx, err error, field string) error {
	var th *accounts.Throttled
	switch {
	case errors.Is(err, accounts.ErrBusy):
		return ErrBusy.WithDetail("Too many passwords are being checked at once; try again shortly.")
	case errors.Is(err, accounts.ErrPasswordTooLong):
		return problem.Invalid(problem.FieldError{Field: field, Message: fmt.Sprintf("must have at most %d bytes", accounts.MaxPasswordBytes)})
	case errors.As(err, &th):
		wait := ratelimit.Seconds(th.Wait)
		c.Set(fiber.HeaderRetryAfter, strconv.Itoa(wait))
		ratelimit.SetHeaders(c, accounts.LoginFailuresMax, 0, wait)
		if th.InFlight {
			return ErrTooManyRequests.WithDetail("Too many logins for this account from this address at once; try again in %d seconds.", wait)
		}
		return ErrTooManyRequests.WithDetail("Too many failed logins for this account from this address; try again in %d seconds.", wait)
	}
	return err
}

// guard is the auth rate limit as the guard of a route, the errors it
// answers declared with it: nothing when limit is nil.
func guard(limit *ratelimit.Limiter) router.Option {
	if limit == nil {
		return func(*router.Operation) {}
	}
	return router.Guard(limit.Handler(), limit.Errors()...)
}
