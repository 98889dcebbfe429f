package docs_test

import (
	"encoding/json"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/docs"
	"github.com/asapjs/fiber-template/platform/problem"
)

func TestGuardThrottlesFailures(t *testing.T) {
	t.Parallel()
	users := map[string]string{"dev": "s3cret"}
	good, bad := basic("dev", "s3cret"), basic("dev", "guess")
	// Each client is named by its X-Client header.
	byHeader := func(c *fiber.Ctx) string { return c.Get("X-Client") }
	type step struct {
		client, auth string
		status       int
		remaining    string
	}
	steps := []step{{"a", good, 200, ""}}
	for i := range 10 {
		steps = append(steps, step{"a", bad, 401, strconv.Itoa(9 - i)})
	}
	steps = append(steps,
		step{"a", "", 429, "0"},                            // past the limit even without credentials
		step{"a", bad, 429, "0"},                           // the 11th guess is not checked
		step{"a", good, 429, "0"},                          // nor is the right password
		step{"b", "", 401, ""},                             // a request without credentials is no attempt
		step{"b", "Basic !!", 401, "9"},                    // a malformed one is
		step{"b", good, 200, ""},                           // another client is not throttled
		step{"b", "Bearer x", 401, "8"},                    // any other scheme counts too
		step{"c", good, 200, ""}, step{"c", good, 200, ""}, // successes never count
	)
	app := guarded(docs.GuardConfig{Users: users, Key: byHeader})
	for i, s := range steps {
		header := []string{"X-Client", s.client}
		if s.auth != "" {
			header = append(header, fiber.HeaderAuthorization, s.auth)
		}
		got := request(t, app, fiber.MethodGet, "/", header...)
		if got.status != s.status || got.header.Get("RateLimit-Remaining") != s.remaining {
			t.Fatalf("step %d (%s %q): %d with RateLimit-Remaining %q, want %d with %q",
				i, s.client, s.auth, got.status, got.header.Get("RateLimit-Remaining"), s.status, s.remaining)
		}
		if s.status == 429 {
			if got.header.Get("Retry-After") == "" || got.header.Get("RateLimit-Limit") != "10" || got.header.Get("RateLimit-Reset") == "" {
				t.Errorf("step %d: 429 headers %v", i, got.header)
			}
			wantProblem(t, got, problem.ErrTooManyRequests)
		}
	}
}

func TestGuardWindowEnds(t *testing.T) {
	t.Parallel()
	app := guarded(docs.GuardConfig{Users: map[string]string{"dev": "s3cret"}, MaxFailures: 2, FailureWindow: 200 * time.Millisecond})
	bad := []string{fiber.HeaderAuthorization, basic("dev", "nope")}
	for _, want := range []int{401, 401, 429} {
		if got := request(t, app, fiber.MethodGet, "/", bad...); got.status != want {
			t.Fatalf("status %d, want %d", got.status, want)
		}
	}
	time.Sleep(250 * time.Millisecond)
	if got := request(t, app, fiber.MethodGet, "/", fiber.HeaderAuthorization, basic("dev", "s3cret")); got.status != 200 {
		t.Errorf("after the window: %d, want 200", got.status)
	}
}

func TestGuardGuessesAtOnceCountEach(t *testing.T) {
	t.Parallel()
	app := guarded(docs.GuardConfig{Users: map[string]string{"dev": "s3cret"}})
	const guesses = 40
	var (
		mu     sync.Mutex
		counts = map[int]int{}
		wg     sync.WaitGroup
	)
	for range guesses {
		wg.Go(func() {
			got := request(t, app, fiber.MethodGet, "/", fiber.HeaderAuthorization, basic("dev", "nope"))
			mu.Lock()
			counts[got.status]++
			mu.Unlock()
		})
	}
	wg.Wait()
	if counts[401] != docs.DefaultMaxFailures || counts[429] != guesses-docs.DefaultMaxFailures {
		t.Errorf("answers %v: want exactly %d checked (401), the rest 429", counts, docs.DefaultMaxFailures)
	}
}

// wantProblem checks that got is the answer of the declared error want:
// its problem, with a detail of its own.
func wantProblem(t *testing.T, got response, want *problem.Error) {
	t.Helper()
	if ct := got.header.Get(fiber.HeaderContentType); ct != problem.ContentType {
		t.Errorf("Content-Type %q", ct)
	}
	var body problem.Problem
	if err := json.Unmarshal(got.body, &body); err != nil {
		t.Fatalf("body %s is not problem details: %v", got.body, err)
	}
	decl := want.Problem()
	if got.status != want.Status || body.Status != want.Status || body.Type != decl.Type || body.Title != decl.Title ||
		body.Code != want.Code || body.Detail == "" || body.Detail == decl.Detail {
		t.Errorf("%d %+v, want the problem of %s with a detail of its own", got.status, body, want.Code)
	}
}
