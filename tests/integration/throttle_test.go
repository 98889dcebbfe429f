package integration

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"
	"golang.org/x/crypto/bcrypt"

	"github.com/asapjs/fiber-template/app"
	"github.com/asapjs/fiber-template/migrations"
	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/router"
	"github.com/asapjs/fiber-template/platform/servicetest"
	"github.com/asapjs/fiber-template/tests/integration/pgtest"
)

// newThrottleAPI migrates db and builds the service on it with cfg (base
// path, secret and logger filled in) and opts (lowest bcrypt cost).
func newThrottleAPI(t *testing.T, db *bun.DB, cfg router.Config, opts app.Options) *userAPI {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := migrations.Up(ctx, db); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	cfg.BasePath, cfg.JWTSecret = "/api", userTestSecret
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelError}))
	}
	opts.BcryptCost = bcrypt.MinCost
	r, err := app.NewWithOptions(db, cfg, opts)
	if err != nil {
		t.Fatalf("build service: %v", err)
	}
	return &userAPI{r: r, db: db, passwords: map[string]bool{}}
}

// sendHTTP sends rq to the service listening at base over a real
// connection, so that the peer is 127.0.0.1; the body is JSON.
func (a *userAPI) sendHTTP(t *testing.T, base string, rq req) response {
	t.Helper()
	var body io.Reader
	if rq.body != nil {
		b, err := json.Marshal(rq.body)
		if err != nil {
			t.Fatal(err)
		}
		body = bytes.NewReader(b)
	}
	hr, err := http.NewRequestWithContext(t.Context(), rq.method, base+rq.path, body)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		hr.Header.Set("Content-Type", "application/json")
	}
	for k, v := range rq.header {
		hr.Header.Set(k, v)
	}
	res, err := (&http.Client{Timeout: 10 * time.Second}).Do(hr)
	if err != nil {
		t.Fatalf("%s %s: %v", rq.method, rq.path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	out := response{status: res.StatusCode, header: res.Header, body: b}
	a.scan(t, rq, out)
	return out
}

// wrongLogin is a login of email with a wrong password, from xff when set.
func wrongLogin(path, email, xff string) req {
	rq := req{method: http.MethodPost, path: path, body: map[string]string{"username": email, "password": "wrong-pass-99"}}
	if xff != "" {
		rq.header = map[string]string{"X-Forwarded-For": xff}
	}
	return rq
}

// wantLimited checks a 429 problem with Retry-After and the RateLimit
// headers, Remaining 0.
func (res response) wantLimited(t *testing.T) {
	t.Helper()
	res.wantProblem(t, http.StatusTooManyRequests)
	h := res.header
	if h.Get("Retry-After") == "" || h.Get("RateLimit-Limit") == "" || h.Get("RateLimit-Remaining") != "0" || h.Get("RateLimit-Reset") == "" {
		t.Errorf("429 headers Retry-After %q, RateLimit-Limit %q, -Remaining %q, -Reset %q",
			h.Get("Retry-After"), h.Get("RateLimit-Limit"), h.Get("RateLimit-Remaining"), h.Get("RateLimit-Reset"))
	}
}

// wantRetryAfter checks a throttled login: a 429 whose Retry-After, and
// RateLimit-Reset with it, is within [lo, hi].
func (res response) wantRetryAfter(t *testing.T, lo, hi time.Duration) {
	t.Helper()
	res.wantProblem(t, http.StatusTooManyRequests)
	wait, err := strconv.Atoi(res.header.Get("Retry-After"))
	if got := time.Duration(wait) * time.Second; err != nil || got < lo || got > hi {
		t.Errorf("Retry-After %q, want within [%s, %s]; body %s", res.header.Get("Retry-After"), lo, hi, res.body)
	}
	if reset := res.header.Get("RateLimit-Reset"); reset != res.header.Get("Retry-After") {
		t.Errorf("RateLimit-Reset %q, want Retry-After's %q", reset, res.header.Get("Retry-After"))
	}
}

// wantRemaining checks the RateLimit-Remaining of an answer.
func (res response) wantRemaining(t *testing.T, remaining int) {
	t.Helper()
	if got := res.header.Get("RateLimit-Remaining"); got != strconv.Itoa(remaining) {
		t.Errorf("status %d with RateLimit-Remaining %q, want %d; body %s", res.status, got, remaining, res.body)
	}
}

// TestThrottleCannotBeDodgedBySpelling: routing is case-sensitive and
// strict about trailing slashes, so another spelling of an auth route
// reaches no handler at all (a path no route takes is a 404, answered
// without reading the body: it creates nothing and checks no password),
// and the documented spelling keeps its budget.
func TestThrottleCannotBeDodgedBySpelling(t *testing.T) {
	forEachUserBackend(t, func(t *testing.T, newDSN func(*testing.T) string) {
		const limit = 3
		db := openDB(t, newDSN(t))
		a := newThrottleAPI(t, db, router.Config{}, app.Options{AuthRateLimit: limit})
		var n int
		login := func(path string) req {
			n++
			return wrongLogin(path, fmt.Sprintf("spelling-%d@example.com", n), "")
		}
		signUp := func(path string) req {
			n++
			return req{method: http.MethodPost, path: path,
				body: map[string]any{"email": fmt.Sprintf("spelling-%d@example.com", n), "name": "S", "password": "spelling-pass-1"}}
		}
		refresh := func(path string) req {
			return req{method: http.MethodPost, path: path, body: map[string]string{"refresh_token": "not-a-token"}}
		}
		others := []req{
			login("/API/AUTH/LOGIN"), login("/Api/Auth/Login"), login("/api/auth/login/"), login("/api/AUTH/login"),
			refresh("/API/Auth/REFRESH"), refresh("/api/auth/refresh/"),
			signUp("/API/USERS"), signUp("/Api/Users"), signUp("/api/users/"),
		}
		for _, rq := range others {
			res := a.send(t, rq)
			res.wantProblem(t, http.StatusNotFound)
			if res.header.Get("RateLimit-Limit") != "" {
				t.Errorf("%s %s reached the limited route: %v", rq.method, rq.path, res.header)
			}
		}
		var created int
		if err := db.NewRaw("SELECT count(*) FROM users WHERE email LIKE 'spelling-%'").Scan(context.Background(), &created); err != nil {
			t.Fatal(err)
		}
		if created != 0 {
			t.Errorf("%d users signed up through other spellings", created)
		}
		for i := range limit {
			a.send(t, login("/api/auth/login")).wantRemaining(t, limit-i-1)
		}
		a.send(t, login("/api/auth/login")).wantLimited(t)
		// Spent: the other spellings still reach nothing.
		for _, rq := range []req{login("/API/AUTH/LOGIN"), signUp("/api/USERS")} {
			a.send(t, rq).wantProblem(t, http.StatusNotFound)
		}
		t.Run("other routes are not limited", func(t *testing.T) {
			res := a.send(t, req{method: http.MethodGet, path: "/api/users/me", token: "x"})
			res.wantProblem(t, http.StatusUnauthorized)
			if res.header.Get("RateLimit-Limit") != "" {
				t.Errorf("GET /users/me carries RateLimit headers %v", res.header)
			}
		})
	})
}

func TestThrottleIgnoresForwardedForFromAnUntrustedPeer(t *testing.T) {
	forEachUserBackend(t, func(t *testing.T, newDSN func(*testing.T) string) {
		const limit = 100
		a := newThrottleAPI(t, openDB(t, newDSN(t)), router.Config{}, app.Options{AuthRateLimit: limit})
		a.memberToken(t, "victim@example.com") // sign-up and login: 2 of the budget
		count := map[int]int{}
		for i := range 40 {
			xff := fmt.Sprintf("198.51.100.%d, 203.0.113.%d", i, i)
			res := a.send(t, wrongLogin("/api/auth/login", "victim@example.com", xff))
			count[res.status]++
			switch {
			case i < 5 && res.status != http.StatusUnauthorized:
				t.Fatalf("guess %d answered %d, want 401; body %s", i+1, res.status, res.body)
			case i < 5:
				// The per-address limit ignored the header too.
				res.wantRemaining(t, limit-2-i-1)
			case res.status != http.StatusTooManyRequests:
				t.Fatalf("guess %d answered %d, want 429: the rotating header bought fresh guesses", i+1, res.status)
			default:
				res.wantLimited(t)
				if res.header.Get("RateLimit-Limit") != "5" {
					t.Errorf("the lockout's 429 says RateLimit-Limit %q, want 5", res.header.Get("RateLimit-Limit"))
				}
			}
		}
		if count[http.StatusUnauthorized] != 5 || count[http.StatusTooManyRequests] != 35 {
			t.Errorf("answers %v, want 5 × 401 then 35 × 429", count)
		}
	})
}

func TestThrottleKeysTheRightMostUntrustedAddress(t *testing.T) {
	forEachUserBackend(t, func(t *testing.T, newDSN func(*testing.T) string) {
		const limit = 6
		a := newThrottleAPI(t, openDB(t, newDSN(t)), router.Config{TrustedProxies: []string{"127.0.0.0/8"}}, app.Options{AuthRateLimit: limit})
		base := servicetest.ServeWith(t, a.r.App(), a.r.Serve)
		var n int
		guess := func(xff string) response {
			n++
			return a.sendHTTP(t, base, wrongLogin("/api/auth/login", fmt.Sprintf("nobody-%d@example.com", n), xff))
		}
		t.Run("rotating the left-most address does not buy a budget", func(t *testing.T) {
			for i := range limit {
				guess(fmt.Sprintf("10.%d.%d.1, 203.0.113.5", i, i)).wantRemaining(t, limit-i-1)
			}
			guess("192.0.2.77, 203.0.113.5").wantLimited(t)
			guess("203.0.113.5").wantLimited(t)
		})
		t.Run("another right-most address has a budget of its own", func(t *testing.T) {
			guess("203.0.113.5, 203.0.113.6").wantRemaining(t, limit-1)
			// A trusted hop on the right is skipped: the same client.
			guess("203.0.113.6, 127.0.0.9").wantRemaining(t, limit-2)
		})
		t.Run("an IPv6 client counts by its /64", func(t *testing.T) {
			guess("2001:db8:1:2::1").wantRemaining(t, limit-1)
			guess("2001:db8:1:2:ffff:ffff:ffff:ffff").wantRemaining(t, limit-2)
			guess("2001:db8:1:3::1").wantRemaining(t, limit-1)
		})
		t.Run("the per-account lockout keys by the same address", func(t *testing.T) {
			a.memberToken(t, "locked@example.com")
			for range 5 {
				a.sendHTTP(t, base, wrongLogin("/api/auth/login", "locked@example.com", "198.51.100.1, 203.0.113.7")).
					wantProblem(t, http.StatusUnauthorized)
			}
			a.sendHTTP(t, base, wrongLogin("/api/auth/login", "locked@example.com", "198.51.100.2, 203.0.113.7")).wantLimited(t)
			a.sendHTTP(t, base, wrongLogin("/api/auth/login", "locked@example.com", "198.51.100.1, 203.0.113.8")).
				wantProblem(t, http.StatusUnauthorized)
		})
	})
}

// TestThrottleVictimsLoginKeepsTheAttackersLockout: a success forgets the
// failures of its own account and address only. An attacker who spent the
// five guesses of a victim's account from one address stays locked out
// when the victim logs in from another, or the victim's every login would
// hand the attacker five more guesses.
func TestThrottleVictimsLoginKeepsTheAttackersLockout(t *testing.T) {
	forEachUserBackend(t, func(t *testing.T, newDSN func(*testing.T) string) {
		a := newThrottleAPI(t, openDB(t, newDSN(t)), router.Config{TrustedProxies: []string{"127.0.0.0/8"}}, app.Options{})
		base := servicetest.ServeWith(t, a.r.App(), a.r.Serve)
		const email, attacker, home = "guarded@example.com", "203.0.113.66", "198.51.100.20"
		a.memberToken(t, email)
		right := func(xff string) req {
			return req{method: http.MethodPost, path: "/api/auth/login", body: map[string]string{"username": email, "password": "member-pass-1234"},
				header: map[string]string{"X-Forwarded-For": xff}}
		}
		for range 5 {
			a.sendHTTP(t, base, wrongLogin("/api/auth/login", email, attacker)).wantProblem(t, http.StatusUnauthorized)
		}
		a.sendHTTP(t, base, wrongLogin("/api/auth/login", email, attacker)).wantRetryAfter(t, 14*time.Minute, 15*time.Minute)

		t.Run("the victim's own login, from elsewhere, works and forgets the victim's failures", func(t *testing.T) {
			for range 4 {
				a.sendHTTP(t, base, wrongLogin("/api/auth/login", email, home)).wantProblem(t, http.StatusUnauthorized)
			}
			a.sendHTTP(t, base, right(home)).wantStatus(t, http.StatusOK)
			// Forgotten: five more typos before a lockout, not one.
			for range 5 {
				a.sendHTTP(t, base, wrongLogin("/api/auth/login", email, home)).wantProblem(t, http.StatusUnauthorized)
			}
			a.sendHTTP(t, base, right(home)).wantStatus(t, http.StatusTooManyRequests)
		})
		t.Run("the attacker is still locked out, the right password included", func(t *testing.T) {
			a.sendHTTP(t, base, wrongLogin("/api/auth/login", email, attacker)).wantRetryAfter(t, 14*time.Minute, 15*time.Minute)
			a.sendHTTP(t, base, right(attacker)).wantRetryAfter(t, 14*time.Minute, 15*time.Minute)
		})
	})
}

func TestThrottleLimitsALongForwardedFor(t *testing.T) {
	forEachUserBackend(t, func(t *testing.T, newDSN func(*testing.T) string) {
		const limit = 3
		chain := strings.Repeat("198.51.100.250, ", 12) + "203.0.113.9" // 203 characters
		junk := strings.Repeat("x", 200)
		a := newThrottleAPI(t, openDB(t, newDSN(t)), router.Config{TrustedProxies: []string{"127.0.0.0/8"}}, app.Options{AuthRateLimit: limit})
		base := servicetest.ServeWith(t, a.r.App(), a.r.Serve)
		// Each case is one client, whose requests send the headers in
		// turn: the limit holds whatever they are.
		cases := []struct {
			name string
			xffs []string
			over bool // over a real connection from a trusted peer
		}{
			{"200-character headers from an untrusted peer", []string{chain, junk}, false},
			{"a 200-character chain from a trusted proxy", []string{chain}, true},
			{"200 characters of junk left of the client from a trusted proxy", []string{junk + ", 203.0.113.10"}, true},
			{"200 characters of junk alone from a trusted proxy (the proxy is the client)", []string{junk, "," + junk}, true},
		}
		var n int
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				for i := range limit + 1 {
					xff := tc.xffs[i%len(tc.xffs)]
					if len(xff) < 200 {
						t.Fatalf("the header has %d characters", len(xff))
					}
					n++
					rq := wrongLogin("/api/auth/login", fmt.Sprintf("long-%d@example.com", n), xff)
					var res response
					if tc.over {
						res = a.sendHTTP(t, base, rq)
					} else {
						res = a.send(t, rq)
					}
					if i < limit {
						res.wantProblem(t, http.StatusUnauthorized)
						res.wantRemaining(t, limit-i-1)
					} else {
						res.wantLimited(t)
					}
				}
			})
		}
	})
}

// TestThrottleFrozenDatabase freezes the controlled PostgreSQL server,
// which may be the shared one, so it must not run in parallel with the tests
// that use it.
func TestThrottleFrozenDatabase(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	db, err := database.OpenPool(ctx, pgtest.NewControlledDatabase(t), database.Pool{StatementTimeout: outageTimeout})
	if err != nil {
		t.Fatalf("open database: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	a := newThrottleAPI(t, db, router.Config{RequestTimeout: outageTimeout}, app.Options{AuthRateLimit: 30})
	a.send(t, wrongLogin("/api/auth/login", "frozen@example.com", "")).wantProblem(t, http.StatusUnauthorized)

	pgtest.Freeze(t)
	t.Run("the auth routes answer 503 within the request timeout and a second", func(t *testing.T) {
		rqs := []req{
			wrongLogin("/api/auth/login", "frozen@example.com", ""),
			{method: http.MethodPost, path: "/api/auth/refresh", body: map[string]string{"refresh_token": "x"}},
		}
		var wg sync.WaitGroup
		for _, rq := range rqs {
			wg.Go(func() {
				begun := time.Now()
				res, err := a.do(t, rq)
				took := time.Since(begun)
				switch {
				case err != nil:
					t.Error(err)
				case took > outageTimeout+time.Second:
					t.Errorf("%s answered %d after %s, want within %s", rq.path, res.status, took, outageTimeout+time.Second)
				case res.status != http.StatusServiceUnavailable || res.header.Get("Retry-After") == "":
					t.Errorf("%s answered %d (Retry-After %q), want 503 with Retry-After; body %s", rq.path, res.status, res.header.Get("Retry-After"), res.body)
				}
			})
		}
		wg.Wait()
	})

	pgtest.Thaw(t)
	t.Run("login answers again once the database resumes", func(t *testing.T) {
		a.eventually(t, wrongLogin("/api/auth/login", "frozen@example.com", ""), http.StatusUnauthorized, 10*time.Second).
			wantProblem(t, http.StatusUnauthorized)
	})
}

func TestThrottleDocsGuard(t *testing.T) {
	forEachUserBackend(t, func(t *testing.T, newDSN func(*testing.T) string) {
		a := newThrottleAPI(t, openDB(t, newDSN(t)), router.Config{
			APIDocs: router.APIDocs{UseAuth: true, Users: map[string]string{"dev": "docs-pass-1"}},
		}, app.Options{})
		docs := func(user, password string) req {
			rq := req{method: http.MethodGet, path: "/api/docs/spec.json"}
			if user != "" {
				rq.header = map[string]string{"Authorization": "Basic " + basicAuth(user, password)}
			}
			return rq
		}
		a.send(t, docs("dev", "docs-pass-1")).wantStatus(t, http.StatusOK)
		for i := range 10 {
			res := a.send(t, docs("dev", fmt.Sprintf("guess-%d", i)))
			res.wantProblem(t, http.StatusUnauthorized)
			res.wantRemaining(t, 9-i)
		}
		t.Run("the 11th bad password in a minute is a 429", func(t *testing.T) {
			a.send(t, docs("dev", "guess-10")).wantLimited(t)
		})
		t.Run("and so is the right one until the window ends", func(t *testing.T) {
			a.send(t, docs("dev", "docs-pass-1")).wantLimited(t)
		})
	})
}

// basicAuth is the credentials of the Basic scheme.
func basicAuth(user, password string) string {
	return base64.StdEncoding.EncodeToString([]byte(user + ":" + password))
}

func TestThrottleCountersOnPostgres(t *testing.T) {
	t.Parallel()
	db := openDB(t, pgtest.NewDatabase(t))
	if err := migrations.Up(t.Context(), db); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	c := database.NewRateLimitCounters(db)
	now := time.Now()
	t.Run("hits sent at once count each", func(t *testing.T) {
		const hits = 50
		seen := make(chan int, hits)
		var wg sync.WaitGroup
		for range hits {
			wg.Go(func() {
				n, _, err := c.Hit(t.Context(), "auth:concurrent", time.Minute, now)
				if err != nil {
					t.Error(err)
				}
				seen <- n
			})
		}
		wg.Wait()
		close(seen)
		got := map[int]bool{}
		for n := range seen {
			got[n] = true
		}
		for i := 1; i <= hits; i++ {
			if !got[i] {
				t.Fatalf("no hit counted %d: %v", i, got)
			}
		}
	})
	t.Run("a window ends, and the sweep deletes it", func(t *testing.T) {
		if n, reset, err := c.Hit(t.Context(), "auth:ends", time.Second, now); err != nil || n != 1 || !reset.Equal(time.UnixMilli(now.Add(time.Second).UnixMilli())) {
			t.Fatalf("Hit = %d, %s, %v", n, reset, err)
		}
		if n, _, err := c.Hit(t.Context(), "auth:ends", time.Second, now.Add(time.Second)); err != nil || n != 1 {
			t.Fatalf("Hit after the window = %d, %v; want 1", n, err)
		}
		deleted, err := c.Sweep(t.Context(), now.Add(time.Hour))
		if err != nil || deleted != 2 {
			t.Errorf("Sweep deleted %d (%v), want both keys", deleted, err)
		}
	})
	t.Run("a key of 64 bytes fits, a longer one does not (the limiter hashes those)", func(t *testing.T) {
		if _, _, err := c.Hit(t.Context(), strings.Repeat("k", 64), time.Minute, now); err != nil {
			t.Errorf("64-byte key: %v", err)
		}
		if _, _, err := c.Hit(t.Context(), strings.Repeat("k", 65), time.Minute, now); err == nil {
			t.Error("a 65-byte key was stored")
		}
	})
	t.Run("the old gofiber table is gone", func(t *testing.T) {
		var n int
		if err := db.NewSelect().TableExpr("information_schema.tables").ColumnExpr("count(*)").
			Where("table_name = 'rate_limits'").Scan(t.Context(), &n); err != nil || n != 0 {
			t.Errorf("rate_limits: %d tables (%v)", n, err)
		}
	})
}
