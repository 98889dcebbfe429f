package router_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asapjs/fiber-template/platform/idempotency"
	"github.com/asapjs/fiber-template/platform/router"
	"github.com/asapjs/fiber-template/platform/servicetest"
)

// createWithKey posts a thing named name to r's target with the
// Idempotency-Key key.
func createWithKey(t *testing.T, r *router.Router, target, key, name string) (*http.Response, []byte) {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, target, strings.NewReader(`{"name":"`+name+`"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(router.HeaderIdempotencyKey, key)
	return do(t, r, req)
}

// TestWhatTheIdempotencyStoreIsGiven: what a Store implementation is
// handed and may do, seen from the answers: the lease of a claim, a store
// that keeps no headers, a store that fails to keep or release.
func TestWhatTheIdempotencyStoreIsGiven(t *testing.T) {
	t.Parallel()
	newStore := func() *keyStore { return &keyStore{recs: map[string]idempotency.Record{}} }

	t.Run("a claim lasts the request's deadline and a margin to keep its answer", func(t *testing.T) {
		t.Parallel()
		store := newStore()
		r, _ := idempotentRouterConfig(t, store, router.Config{JWTSecret: testSecret, RequestTimeout: 3 * time.Second}, nil, nil)
		if resp, body := createWithKey(t, r, "/things", "lease", "a"); resp.StatusCode != http.StatusCreated {
			t.Fatalf("%d %s", resp.StatusCode, body)
		}
		store.mu.Lock()
		lease := store.lease
		store.mu.Unlock()
		if lease <= 3*time.Second || lease > 13*time.Second {
			t.Errorf("the claim's lease is %v, want more than the 3s deadline, by seconds", lease)
		}
	})

	t.Run("an answer kept without its headers replays its status and body", func(t *testing.T) {
		t.Parallel()
		store := newStore()
		store.dropHeaders = true
		r, created := idempotentRouterOn(t, store, nil, nil)
		_, first := createWithKey(t, r, "/things", "bare", "a")
		resp, again := createWithKey(t, r, "/things", "bare", "a")
		if resp.StatusCode != http.StatusCreated || string(again) != string(first) || resp.Header.Get(router.HeaderIdempotentReplayed) != "true" || created() != 1 {
			t.Errorf("the retry: %d %s (replayed %q), %d created; want the first answer %s, replayed, one created",
				resp.StatusCode, again, resp.Header.Get(router.HeaderIdempotentReplayed), created(), first)
		}
	})

	t.Run("a replay carries the headers the answer had, and no others", func(t *testing.T) {
		t.Parallel()
		r, _ := idempotentRouterOn(t, newStore(), nil, nil)
		first, _ := createWithKey(t, r, "/things", "headers", "a")
		resp, _ := createWithKey(t, r, "/things", "headers", "a")
		for _, name := range []string{"Location", "ETag"} {
			if got := resp.Header.Get(name); got == "" || got != first.Header.Get(name) {
				t.Errorf("the replay's %s is %q, want the first answer's %q", name, got, first.Header.Get(name))
			}
		}
		for _, name := range []string{"Link", "Content-Location", "Last-Modified"} {
			if v, ok := resp.Header[name]; ok {
				t.Errorf("the replay has a %s header %q that the first answer did not have", name, v)
			}
		}
	})

	t.Run("a store that cannot keep or release an answer is logged, and one that can is not", func(t *testing.T) {
		t.Parallel()
		for _, tc := range []struct {
			name                      string
			failComplete, failRelease bool
			create                    string
			want, notWant             string
		}{
			{"kept", false, false, "a", "", "idempotent answer"},
			{"not kept", true, false, "a", "keep an idempotent answer", ""},
			{"released", false, false, "fail", "", "release an idempotency key"},
			{"not released", false, true, "fail", "release an idempotency key", ""},
		} {
			logs := &servicetest.Buffer{}
			store := newStore()
			store.failComplete, store.failRelease = tc.failComplete, tc.failRelease
			r, _ := idempotentRouterConfig(t, store, router.Config{JWTSecret: testSecret, Logger: slog.New(slog.NewTextHandler(logs, nil))}, nil, nil)
			createWithKey(t, r, "/things", "logged", tc.create)
			if got := logs.String(); tc.want != "" && !strings.Contains(got, tc.want) || tc.notWant != "" && strings.Contains(got, tc.notWant) {
				t.Errorf("%s: the log is %q; want it to say %q and not %q", tc.name, got, tc.want, tc.notWant)
			}
		}
	})

	t.Run("every success status is kept, from 200 to 299", func(t *testing.T) {
		t.Parallel()
		var runs atomic.Int32
		ok := func(*router.Ctx, *createThing) (*versioned, error) {
			runs.Add(1)
			return &versioned{ID: 1, Name: "a", Version: 1}, nil
		}
		r := newRouter(t, router.Config{Idempotency: newStore(), Controllers: []router.Controller{router.Group{Path: "/things", Declared: []router.Route{
			router.Post("/200", ok), router.Post("/299", ok, router.Status(299)),
		}}}})
		for _, target := range []string{"/things/200", "/things/299"} {
			runs.Store(0)
			createWithKey(t, r, target, "status", "a")
			resp, body := createWithKey(t, r, target, "status", "a")
			if resp.Header.Get(router.HeaderIdempotentReplayed) != "true" || runs.Load() != 1 {
				t.Errorf("%s: the retry is %d %s, replayed %q, after %d runs; want the first answer replayed, one run",
					target, resp.StatusCode, body, resp.Header.Get(router.HeaderIdempotentReplayed), runs.Load())
			}
		}
	})
}
