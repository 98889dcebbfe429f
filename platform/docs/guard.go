package docs

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/basicauth"
	"github.com/asapjs/fiber-template/platform/problem"
	"github.com/asapjs/fiber-template/platform/ratelimit"
)

// Guard returns middleware that lets a request through only with HTTP Basic
// credentials (RFC 7617) of one of cfg.Users. Any other request, including
// one whose Authorization header is malformed, is refused with
// problem.ErrUnauthorized and a WWW-Authenticate challenge; when it sent an
// Authorization header, wrong or malformed, it counts as a failure of its
// client. A client past cfg.MaxFailures failures in a window is refused with
// problem.ErrTooManyRequests and Retry-After, whatever it sends, until the
// window ends; both refusals carry RateLimit-Limit, -Remaining and -Reset.
// The failures are counted in this process, in memory bounded by
// cfg.FailureBudget.
//
// A refusal is returned as the error, its headers set, for the app's error
// handler to answer as it answers every declared error (the router's does,
// with a problem details body).
//
//	docs.Guard(docs.GuardConfig{Users: map[string]string{"dev": "s3cret"}})
func Guard(cfg GuardConfig) fiber.Handler {
	cfg = guardConfigDefault(cfg)
	accounts := basicauth.New(cfg.Users)
	challenge := basicauth.Challenge(cfg.Realm)
	var (
		// mu makes look, check and count one step, so guesses sent at
		// once cannot all pass the look before any is counted; the check
		// takes microseconds.
		mu       sync.Mutex
		failures = ratelimit.NewMemoryStore(cfg.FailureBudget)
	)

	return func(c *fiber.Ctx) error {
		key, now := cfg.Key(c), time.Now()
		header := c.Get(fiber.HeaderAuthorization)
		user, password, ok := basicauth.Parse(header)
		mu.Lock()
		if n, reset := failures.Peek(key, now); n >= cfg.MaxFailures {
			mu.Unlock()
			wait := ratelimit.Seconds(reset.Sub(now))
			ratelimit.SetHeaders(c, cfg.MaxFailures, 0, wait)
			c.Set(fiber.HeaderRetryAfter, strconv.Itoa(wait))
			return problem.ErrTooManyRequests.WithDetail("Too many failed attempts at the API docs credentials from this address; try again in %d seconds.", wait)
		}
		if ok && accounts.Allow(user, password) {
			mu.Unlock()
			return c.Next()
		}
		if header == "" {
			// No attempt: the first request of a browser, answered with
			// the challenge, does not count.
			mu.Unlock()
		} else {
			// The memory store does not block and has no deadline to miss.
			n, reset, err := failures.Hit(context.Background(), key, cfg.FailureWindow, now)
			mu.Unlock()
			if err == nil {
				ratelimit.SetHeaders(c, cfg.MaxFailures, cfg.MaxFailures-n, ratelimit.Seconds(reset.Sub(now)))
			}
		}
		c.Set(fiber.HeaderWWWAuthenticate, challenge)
		return problem.ErrUnauthorized.WithDetail("Valid Basic credentials are required to view the API docs.")
	}
}
