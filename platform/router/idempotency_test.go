package router_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/asapjs/fiber-template/platform/idempotency"
	"github.com/asapjs/fiber-template/platform/router"
)

// keyStore is an idempotency.Store in a map, enough for one process;
// with failComplete, Complete fails as a database that went away would.
type keyStore struct {
	mu           sync.Mutex
	recs         map[string]idempotency.Record
	failComplete bool
}

func (s *keyStore) Claim(_ context.Context, c idempotency.Claim) (idempotency.Record, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if rec, ok := s.recs[c.ID]; ok {
		return rec, false, nil
	}
	s.recs[c.ID] = idempotency.Record{Fingerprint: c.Fingerprint}
	return s.recs[c.ID], true, nil
}

func (s *keyStore) Complete(_ context.Context, id string, rec idempotency.Record) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failComplete {
		return errors.New("the store is gone")
	}
	rec.Fingerprint, rec.Done = s.recs[id].Fingerprint, true
	s.recs[id] = rec
	return nil
}

func (s *keyStore) Release(_ context.Context, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.recs, id)
	return nil
}

type createThing struct {
	Body struct {
		Name string `json:"name" validate:"required"`
	}
}

// idempotentRouter serves POST /things, idempotent: each create counts,
// and a create named "slow" says it started, then waits for release; one
// named "fail" fails.
func idempotentRouter(t *testing.T, started chan<- struct{}, release <-chan struct{}) (*router.Router, func() int) {
	return idempotentRouterOn(t, &keyStore{recs: map[string]idempotency.Record{}}, started, release)
}

// idempotentRouterOn is idempotentRouter on store.
func idempotentRouterOn(t *testing.T, store *keyStore, started chan<- struct{}, release <-chan struct{}) (*router.Router, func() int) {
	var (
		mu      sync.Mutex
		created int
	)
	r := newRouter(t, router.Config{
		Idempotency: store,
		Controllers: []router.Controller{router.Group{Path: "/things", Declared: []router.Route{
			router.Post("/", func(c *router.Ctx, in *createThing) (*versioned, error) {
				switch in.Body.Name {
				case "slow":
					started <- struct{}{}
					<-release
				case "fail":
					return nil, errThingNotFound
				}
				mu.Lock()
				defer mu.Unlock()
				created++
				c.Fiber().Location("/things/1")
				return &versioned{ID: int64(created), Name: in.Body.Name, Version: 1}, nil
			}, router.Status(http.StatusCreated), router.Idempotent(), router.Errors(errThingNotFound)),
		}}},
	})
	return r, func() int { mu.Lock(); defer mu.Unlock(); return created }
}

func postThing(t *testing.T, r *router.Router, key, body string) (*http.Response, []byte) {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/things", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	return do(t, r, req)
}

func TestIdempotentRoutes(t *testing.T) {
	t.Parallel()
	r, created := idempotentRouter(t, nil, nil)
	first, body := postThing(t, r, "k1", `{"name":"a"}`)
	if first.StatusCode != http.StatusCreated || first.Header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("first: %d replayed %q", first.StatusCode, first.Header.Get("Idempotent-Replayed"))
	}
	again, againBody := postThing(t, r, "k1", `{ "name": "a" }`)
	for _, h := range []string{"Location", "ETag", "Content-Type"} {
		if again.Header.Get(h) != first.Header.Get(h) {
			t.Errorf("replayed %s %q, want %q", h, again.Header.Get(h), first.Header.Get(h))
		}
	}
	if again.StatusCode != http.StatusCreated || string(againBody) != string(body) || again.Header.Get("Idempotent-Replayed") != "true" || created() != 1 {
		t.Fatalf("retry: %d %s replayed %q, %d created; want the first answer replayed, one created", again.StatusCode, againBody, again.Header.Get("Idempotent-Replayed"), created())
	}
	if res, body := postThing(t, r, "k1", `{"name":"b"}`); res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(string(body), "idempotency_key_reused") {
		t.Errorf("the key with another body: %d %s, want 422 idempotency_key_reused", res.StatusCode, body)
	}
	if res, _ := postThing(t, r, "", `{"name":"a"}`); res.StatusCode != http.StatusCreated || created() != 2 {
		t.Errorf("without a key: %d, %d created; want a second create", res.StatusCode, created())
	}
	for range 2 {
		if res, body := postThing(t, r, "k2", `{"name":"fail"}`); res.StatusCode != errThingNotFound.Status {
			t.Errorf("a failing create: %d %s, want %d each time", res.StatusCode, body, errThingNotFound.Status)
		}
	}
}

func TestIdempotentRetryWhileTheFirstRuns(t *testing.T) {
	t.Parallel()
	started, release := make(chan struct{}), make(chan struct{})
	r, created := idempotentRouter(t, started, release)
	done := make(chan *http.Response)
	go func() {
		res, _ := postThing(t, r, "slow-1", `{"name":"slow"}`)
		done <- res
	}()
	<-started
	// The first holds the key until released: a retry meanwhile is a 409.
	res, body := postThing(t, r, "slow-1", `{"name":"slow"}`)
	if !strings.Contains(string(body), "idempotency_key_in_use") || res.Header.Get("Retry-After") == "" {
		t.Errorf("%d %s Retry-After %q; want idempotency_key_in_use with a Retry-After", res.StatusCode, body, res.Header.Get("Retry-After"))
	}
	close(release)
	if first := <-done; first.StatusCode != http.StatusCreated || res.StatusCode != http.StatusConflict || created() != 1 {
		t.Fatalf("first %d, retry while it ran %d, %d created; want 201, 409, one", first.StatusCode, res.StatusCode, created())
	}
}

func TestAnAnswerTheStoreCouldNotKeepIsNotRunAgain(t *testing.T) {
	t.Parallel()
	r, created := idempotentRouterOn(t, &keyStore{recs: map[string]idempotency.Record{}, failComplete: true}, nil, nil)
	if res, _ := postThing(t, r, "k1", `{"name":"a"}`); res.StatusCode != http.StatusCreated {
		t.Fatalf("first: %d, want the create's 201 though its answer could not be kept", res.StatusCode)
	}
	if res, _ := postThing(t, r, "k1", `{"name":"a"}`); res.StatusCode != http.StatusConflict || created() != 1 {
		t.Fatalf("retry: %d, %d created; want a 409 and the one create, not a second", res.StatusCode, created())
	}
}

func TestIdempotentRoutesAreDocumented(t *testing.T) {
	t.Parallel()
	r, _ := idempotentRouter(t, nil, nil)
	_, body := get(t, r, "/docs/spec.json")
	op := loadSpec(t, body).Paths.Find("/things").Post
	var key bool
	for _, p := range op.Parameters {
		key = key || (p.Value.In == "header" && p.Value.Name == "Idempotency-Key" && !p.Value.Required)
	}
	if !key || op.Responses.Status(http.StatusConflict) == nil || op.Responses.Status(http.StatusUnprocessableEntity) == nil ||
		op.Responses.Status(http.StatusCreated).Value.Headers["Idempotent-Replayed"] == nil ||
		op.Responses.Status(http.StatusConflict).Value.Headers["Retry-After"] == nil {
		t.Error("POST /things does not document the optional Idempotency-Key, its 409 with Retry-After, 422 and Idempotent-Replayed")
	}
	h := func(c *router.Ctx, in *createThing) (*versioned, error) { return nil, nil }
	for name, cfg := range map[string]router.Config{
		"without a store": {Controllers: []router.Controller{router.Group{Path: "/t", Declared: []router.Route{router.Post("/", h, router.Idempotent())}}}},
		"on a PUT":        {Idempotency: &keyStore{}, Controllers: []router.Controller{router.Group{Path: "/t", Declared: []router.Route{router.Put("/", h, router.Idempotent())}}}},
	} {
		if _, err := router.New(cfg); err == nil {
			t.Errorf("an idempotent route %s: router.New succeeded, want an error", name)
		}
	}
}

func TestMalformedIdempotencyKeys(t *testing.T) {
	t.Parallel()
	r, created := idempotentRouter(t, nil, nil)
	for _, tc := range []struct {
		name   string
		fields []string
	}{
		{"sent empty", []string{""}},
		{"blank", []string{"  "}},
		{"an empty string", []string{`""`}},
		{"sent twice", []string{"k1", "k2"}},
		{"unterminated", []string{`"k`}},
		{"over the length", []string{strings.Repeat("k", 256)}},
		{"not ASCII", []string{"caf\u00e9"}},
	} {
		req := httptest.NewRequest(http.MethodPost, "/things", strings.NewReader(`{"name":"a"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header["Idempotency-Key"] = tc.fields
		resp, body := do(t, r, req)
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("a key %s: status %d, want 400: %s", tc.name, resp.StatusCode, body)
			continue
		}
		wantField(t, wantProblem(t, resp, body, http.StatusBadRequest), "Idempotency-Key")
	}
	if n := created(); n != 0 {
		t.Errorf("%d created by requests with malformed keys", n)
	}
}
