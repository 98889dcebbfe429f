package ratelimit_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/problem"
	"github.com/asapjs/fiber-template/platform/ratelimit"
)

// clock is a settable time for the limiter.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// recordingStore remembers the keys it was asked about and fails with err.
type recordingStore struct {
	mu   sync.Mutex
	keys []string
	err  error
	next ratelimit.Store
}

func (s *recordingStore) Hit(ctx context.Context, key string, window time.Duration, now time.Time) (int, time.Time, error) {
	s.mu.Lock()
	s.keys = append(s.keys, key)
	s.mu.Unlock()
	if s.err != nil {
		return 0, time.Time{}, s.err
	}
	return s.next.Hit(ctx, key, window, now)
}

// blockingStore answers only when ctx is done.
type blockingStore struct{}

func (blockingStore) Hit(ctx context.Context, _ string, _ time.Duration, _ time.Time) (int, time.Time, error) {
	<-ctx.Done()
	return 0, time.Time{}, ctx.Err()
}

// errorStatus answers declared errors with their status, as the router
// does, and anything else with 500.
func errorStatus(c *fiber.Ctx, err error) error {
	var declared *problem.Error
	if errors.As(err, &declared) {
		return c.Status(declared.Status).JSON(declared.Problem())
	}
	return c.Status(http.StatusInternalServerError).SendString(err.Error())
}

// limited is an app with the limiter on GET /; the request's key is its
// X-Key header. before runs first, if set.
func limited(cfg ratelimit.Config, before fiber.Handler) *fiber.App {
	app := fiber.New(fiber.Config{ErrorHandler: errorStatus})
	if before != nil {
		app.Use(before)
	}
	if cfg.Key == nil {
		cfg.Key = func(c *fiber.Ctx) string { return c.Get("X-Key") }
	}
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	app.Get("/", ratelimit.New(cfg), func(c *fiber.Ctx) error { return c.SendString("ok") })
	return app
}

func send(t *testing.T, app *fiber.App, key string) *http.Response {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.Header.Set("X-Key", key)
	res, err := app.Test(req, -1)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res
}

func TestLimiter(t *testing.T) {
	t.Parallel()
	clk := &clock{now: time.Unix(1_700_000_000, 0)}
	app := limited(ratelimit.Config{Max: 3, Window: time.Minute, Now: clk.Now}, nil)
	steps := []struct {
		name                    string
		key                     string
		advance                 time.Duration
		status                  int
		remaining, reset, retry string
	}{
		{"first request", "a", 0, 200, "2", "60", ""},
		{"second", "a", 10 * time.Second, 200, "1", "50", ""},
		{"third uses the budget up", "a", 0, 200, "0", "50", ""},
		{"fourth is refused with Retry-After", "a", 500 * time.Millisecond, 429, "0", "50", "50"},
		{"another key has its own budget", "b", 0, 200, "2", "60", ""},
		{"still refused near the window's end", "a", 49 * time.Second, 429, "0", "1", "1"},
		{"a new window starts once it ended", "a", time.Second, 200, "2", "60", ""},
	}
	for _, s := range steps {
		clk.advance(s.advance)
		res := send(t, app, s.key)
		got := []string{res.Header.Get("RateLimit-Limit"), res.Header.Get("RateLimit-Remaining"), res.Header.Get("RateLimit-Reset"), res.Header.Get("Retry-After")}
		want := []string{"3", s.remaining, s.reset, s.retry}
		if res.StatusCode != s.status || strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s: %d with Limit, Remaining, Reset, Retry-After %q; want %d with %q", s.name, res.StatusCode, got, s.status, want)
		}
	}
}

func TestLimiterFailsClosed(t *testing.T) {
	t.Parallel()
	cause := errors.New("connection refused")
	cases := []struct {
		name   string
		store  ratelimit.Store
		before fiber.Handler
	}{
		{"a store error", &recordingStore{err: cause}, nil},
		{"the request's deadline", blockingStore{}, func(c *fiber.Ctx) error {
			ctx, cancel := context.WithTimeout(c.UserContext(), 50*time.Millisecond)
			defer cancel()
			c.SetUserContext(ctx)
			return c.Next()
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var got error
			app := fiber.New(fiber.Config{ErrorHandler: func(c *fiber.Ctx, err error) error {
				got = err
				return errorStatus(c, err)
			}})
			if tc.before != nil {
				app.Use(tc.before)
			}
			reached := false
			app.Get("/", ratelimit.New(ratelimit.Config{Store: tc.store, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}),
				func(c *fiber.Ctx) error { reached = true; return nil })
			begun := time.Now()
			res, err := app.Test(httptest.NewRequest(http.MethodGet, "/", nil), -1)
			if err != nil {
				t.Fatal(err)
			}
			if res.StatusCode != http.StatusServiceUnavailable || reached {
				t.Errorf("answered %d, handler reached %v; want 503 and the handler not run", res.StatusCode, reached)
			}
			if !errors.Is(got, ratelimit.ErrUnavailable) {
				t.Errorf("error %v is not ErrUnavailable", got)
			}
			if rs, ok := tc.store.(*recordingStore); ok && !errors.Is(got, rs.err) {
				t.Errorf("error %v does not wrap the store's", got)
			}
			if took := time.Since(begun); took > 2*time.Second {
				t.Errorf("took %s", took)
			}
		})
	}
}

func TestLimiterKeys(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, scope, key string
		want             func(string) bool
	}{
		{"scope and key", "auth", "k1", func(k string) bool { return k == "auth:k1" }},
		{"the default scope", "", "k1", func(k string) bool { return k == "rl:k1" }},
		{"a 64-byte key is kept", "s", strings.Repeat("x", 62), func(k string) bool { return k == "s:"+strings.Repeat("x", 62) }},
		{"a longer one is hashed", "s", strings.Repeat("x", 63), func(k string) bool { return len(k) == 44 && strings.HasPrefix(k, "#") }},
		{"a 200-byte one too", "auth", strings.Repeat("1.2.3.4,", 25), func(k string) bool { return len(k) == 44 }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			store := &recordingStore{next: ratelimit.NewMemoryStore(1 << 20)}
			app := limited(ratelimit.Config{Store: store, Scope: tc.scope}, nil)
			send(t, app, tc.key)
			if len(store.keys) != 1 || !tc.want(store.keys[0]) || len(store.keys[0]) > ratelimit.MaxKeyLen {
				t.Errorf("store keys %q", store.keys)
			}
		})
	}
	t.Run("two long keys differ once hashed", func(t *testing.T) {
		t.Parallel()
		app := limited(ratelimit.Config{Max: 1}, nil)
		a, b := strings.Repeat("a", 100), strings.Repeat("a", 99)+"b"
		if send(t, app, a).StatusCode != 200 || send(t, app, b).StatusCode != 200 || send(t, app, a).StatusCode != 429 {
			t.Error("long keys share a budget, or are not limited")
		}
	})
}

func TestLimiterNext(t *testing.T) {
	t.Parallel()
	app := limited(ratelimit.Config{Max: 1, Next: func(c *fiber.Ctx) bool { return c.Get("X-Key") == "skip" }}, nil)
	for range 3 {
		if res := send(t, app, "skip"); res.StatusCode != 200 || res.Header.Get("RateLimit-Limit") != "" {
			t.Fatalf("a skipped request answered %d with headers %v", res.StatusCode, res.Header)
		}
	}
}

func TestLimiterDefaultKeyIsTheClientAddress(t *testing.T) {
	t.Parallel()
	app := fiber.New(fiber.Config{ErrorHandler: errorStatus})
	app.Get("/", ratelimit.New(ratelimit.Config{Max: 1}), func(c *fiber.Ctx) error { return nil })
	for i, want := range []int{200, 429} {
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.Header.Set("X-Forwarded-For", "198.51.100."+string(rune('1'+i))) // ignored: no trusted proxy
		res, err := app.Test(req, -1)
		if err != nil {
			t.Fatal(err)
		}
		if res.StatusCode != want {
			t.Errorf("request %d answered %d, want %d", i+1, res.StatusCode, want)
		}
	}
}
