package router_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/asapjs/fiber-template/platform/idempotency"
	"github.com/asapjs/fiber-template/platform/router"
	"github.com/asapjs/fiber-template/platform/token"
)

// keyStore is an idempotency.Store in a map, enough for one process;
// with failComplete, Complete fails as a database that went away would.
// keyStore is an idempotency.Store in memory that, like a database,
// fails a call whose context is done.
type keyStore struct {
	mu           sync.Mutex
	recs         map[string]idempotency.Record
	failComplete bool
	failRelease  bool
	// dropHeaders keeps an answer without its headers, as a store that
	// keeps none would.
	dropHeaders bool
	// lease is the Lease of the last claim.
	lease time.Duration
}

func (s *keyStore) Claim(ctx context.Context, c idempotency.Claim) (idempotency.Record, bool, error) {
	if err := ctx.Err(); err != nil {
		return idempotency.Record{}, false, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lease = c.Lease
	if rec, ok := s.recs[c.ID]; ok {
		return rec, false, nil
	}
	s.recs[c.ID] = idempotency.Record{Fingerprint: c.Fingerprint}
	return s.recs[c.ID], true, nil
}

func (s *keyStore) Complete(ctx context.Context, id string, rec idempotency.Record) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failComplete {
		return errors.New("the store is gone")
	}
	rec.Fingerprint, rec.Done = s.recs[id].Fingerprint, true
	if s.dropHeaders {
		rec.Header = nil
	}
	s.recs[id] = rec
	return nil
}

func (s *keyStore) Release(ctx context.Context, id string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failRelease {
		return errors.New("the store is gone")
	}
	delete(s.recs, id)
	return nil
}

// fingerprints are the fingerprints the store holds, as a dump of its
// table would show them.
func (s *keyStore) fingerprints() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, rec := range s.recs {
		out = append(out, rec.Fingerprint)
	}
	return out
}

type createThing struct {
	router.IdempotencyKeyHeader
	Body struct {
		Name string `json:"name" validate:"required"`
	}
}

// idempotentRouter serves POST /things and POST /things/copies, both
// idempotent, with the bearer tokens of testSecret optional and the
// X-Forwarded-For of the peer app.Test sends from trusted: each create
// counts, and a create named "slow" says it started, then waits for
// release; one named "fail" fails.
func idempotentRouter(t *testing.T, started chan<- struct{}, release <-chan struct{}) (*router.Router, func() int) {
	return idempotentRouterOn(t, &keyStore{recs: map[string]idempotency.Record{}}, started, release)
}

// idempotentRouterOn is idempotentRouter on store.
func idempotentRouterOn(t *testing.T, store *keyStore, started chan<- struct{}, release <-chan struct{}) (*router.Router, func() int) {
	return idempotentRouterWith(t, store, testSecret, started, release)
}

// idempotentRouterWith is idempotentRouterOn whose token secret, from
// which the fingerprints' key is derived, is secret; without one, the
// router has no token keys.
func idempotentRouterWith(t *testing.T, store *keyStore, secret []byte, started chan<- struct{}, release <-chan struct{}) (*router.Router, func() int) {
	return idempotentRouterConfig(t, store, router.Config{JWTSecret: secret}, started, release)
}

// idempotentRouterConfig is idempotentRouterOn with the token keys and the
// idempotency secret of cfg.
func idempotentRouterConfig(t *testing.T, store *keyStore, cfg router.Config, started chan<- struct{}, release <-chan struct{}) (*router.Router, func() int) {
	var (
		mu      sync.Mutex
		created int
	)
	create := func(c *router.Ctx, in *createThing) (*versioned, error) {
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
	}
	opts := []router.Option{router.Status(http.StatusCreated), router.Errors(errThingNotFound)}
	if cfg.JWTSecret != nil || cfg.TokenKeys != nil {
		opts = append(opts, router.OptionalAuth())
	}
	cfg.Idempotency = store
	// app.Test's requests come from 0.0.0.0: trusted, their
	// X-Forwarded-For names the client.
	cfg.TrustedProxies = []string{"0.0.0.0"}
	cfg.Controllers = []router.Controller{router.Group{Path: "/things", Declared: []router.Route{
		router.Post("/", create, opts...),
		router.Post("/copies", create, opts...),
	}}}
	r := newRouter(t, cfg)
	return r, func() int { mu.Lock(); defer mu.Unlock(); return created }
}

func postThing(t *testing.T, r *router.Router, key, body string) (*http.Response, []byte) {
	t.Helper()
	return postThingTo(t, r, "/things", key, body, nil)
}

// postThingTo is postThing to target with the extra header.
func postThingTo(t *testing.T, r *router.Router, target, key, body string, header http.Header) (*http.Response, []byte) {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, target, strings.NewReader(body))
	for name, values := range header {
		req.Header[name] = values
	}
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
		"without a store": {Controllers: []router.Controller{router.Group{Path: "/t", Declared: []router.Route{router.Post("/", h)}}}},
		"on a PUT":        {Idempotency: &keyStore{}, Controllers: []router.Controller{router.Group{Path: "/t", Declared: []router.Route{router.Put("/", h)}}}},
		"declared by an option, not the input": {Idempotency: &keyStore{}, Controllers: []router.Controller{router.Group{Path: "/t", Declared: []router.Route{
			router.Post("/", func(*router.Ctx, *struct{}) (*router.NoContent, error) { return nil, nil }, func(op *router.Operation) { op.Idempotent = true })}}}},
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
		{"ending in its escape", []string{`"k\`}},
		{"escaping a letter", []string{`"k\x"`}},
		{"with text after its string", []string{`"k"x`}},
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

// TestIdempotencyKeysBelongToTheirCallerAndRoute sends one key from
// several callers and to two routes: only a caller's own retry on the same
// route is replayed. Anyone else's request with the key runs as if the key
// were new, so that no client can replay, squat on or probe another's key,
// and one key sent to two routes creates on each.
func TestIdempotencyKeysBelongToTheirCallerAndRoute(t *testing.T) {
	t.Parallel()
	r, created := idempotentRouter(t, nil, nil)
	from := func(addr string) http.Header { return http.Header{"X-Forwarded-For": {addr}} }
	as := func(sub string) http.Header {
		return http.Header{"Authorization": {"Bearer " + sign(t, jwt.SigningMethodHS256, testSecret, claimsFor(sub, "member", time.Minute))}}
	}
	steps := []struct {
		name, target, body string
		header             http.Header
		replayed           bool
	}{
		{"the first request", "/things", `{"name":"a"}`, from("203.0.113.1"), false},
		{"its retry", "/things", `{"name":"a"}`, from("203.0.113.1"), true},
		{"the same request from another address", "/things", `{"name":"a"}`, from("203.0.113.2"), false},
		{"another request from a third address", "/things", `{"name":"b"}`, from("203.0.113.3"), false},
		{"the same request from a subject", "/things", `{"name":"a"}`, as("alice"), false},
		{"its retry by that subject", "/things", `{"name":"a"}`, as("alice"), true},
		{"the same request from another subject", "/things", `{"name":"a"}`, as("bob"), false},
		{"the first caller's request on another route", "/things/copies", `{"name":"a"}`, from("203.0.113.1"), false},
		{"another request on that route", "/things/copies", `{"name":"b"}`, from("203.0.113.2"), false},
	}
	want := 0
	for _, s := range steps {
		if !s.replayed {
			want++
		}
		resp, body := postThingTo(t, r, s.target, "shared-key", s.body, s.header)
		replayed := resp.Header.Get("Idempotent-Replayed") == "true"
		if resp.StatusCode != http.StatusCreated || replayed != s.replayed || created() != want {
			t.Fatalf("%s: %d replayed %t, %d created; want 201 replayed %t, %d created: %s",
				s.name, resp.StatusCode, replayed, created(), s.replayed, want, body)
		}
	}
}

// TestIdempotencyFingerprintsAreKeyed reads the fingerprints an idempotent
// route keeps, as a dump of the store would show them: they are HMACs
// under Config.IdempotencySecret, or without one a secret derived from the
// token keys, so instances that share it replay each other's answers (on
// either side of a key rotation when it is the IdempotencySecret), and
// nobody without it can test a guess of a request (a sign-up's password)
// against a fingerprint.
func TestIdempotencyFingerprintsAreKeyed(t *testing.T) {
	t.Parallel()
	const body = `{"name":"a"}`
	// fingerprintOf sends the request through a router with secret and
	// returns the fingerprint its store keeps.
	fingerprintOf := func(t *testing.T, secret []byte) string {
		t.Helper()
		store := &keyStore{recs: map[string]idempotency.Record{}}
		r, _ := idempotentRouterWith(t, store, secret, nil, nil)
		if resp, b := postThing(t, r, "k1", body); resp.StatusCode != http.StatusCreated {
			t.Fatalf("create: %d %s", resp.StatusCode, b)
		}
		fps := store.fingerprints()
		if len(fps) != 1 {
			t.Fatalf("the store keeps %d fingerprints, want 1", len(fps))
		}
		return fps[0]
	}

	t.Run("instances with the same keys replay each other's answers", func(t *testing.T) {
		store := &keyStore{recs: map[string]idempotency.Record{}}
		one, created := idempotentRouterWith(t, store, testSecret, nil, nil)
		other, createdOther := idempotentRouterWith(t, store, testSecret, nil, nil)
		first, firstBody := postThing(t, one, "k1", body)
		again, againBody := postThing(t, other, "k1", body)
		if first.StatusCode != http.StatusCreated || again.StatusCode != http.StatusCreated || string(againBody) != string(firstBody) ||
			again.Header.Get("Idempotent-Replayed") != "true" || created()+createdOther() != 1 {
			t.Fatalf("the retry on another instance: %d %s replayed %q, %d created; want the first answer %s replayed, one created",
				again.StatusCode, againBody, again.Header.Get("Idempotent-Replayed"), created()+createdOther(), firstBody)
		}
	})

	// A fleet amid a rotation: one instance signs with the old key, the
	// other has put a new key first (api keys rotate) and restarted.
	oldKey, err := token.GenerateEd25519()
	if err != nil {
		t.Fatal(err)
	}
	newKey, err := token.GenerateEd25519()
	if err != nil {
		t.Fatal(err)
	}
	before, err := token.ParseKeys(oldKey)
	if err != nil {
		t.Fatal(err)
	}
	after, err := token.ParseKeys(append(slices.Clone(newKey), oldKey...))
	if err != nil {
		t.Fatal(err)
	}
	// retryAcross sends a request to an instance with the keys before the
	// rotation and its retry to one with the keys after, both with the
	// idempotency secret secret, and returns the retry's answer and how
	// many creates ran.
	retryAcross := func(t *testing.T, secret []byte) (*http.Response, int) {
		t.Helper()
		store := &keyStore{recs: map[string]idempotency.Record{}}
		one, created := idempotentRouterConfig(t, store, router.Config{TokenKeys: before, IdempotencySecret: secret}, nil, nil)
		other, createdOther := idempotentRouterConfig(t, store, router.Config{TokenKeys: after, IdempotencySecret: secret}, nil, nil)
		if first, b := postThing(t, one, "k1", body); first.StatusCode != http.StatusCreated {
			t.Fatalf("create: %d %s", first.StatusCode, b)
		}
		again, _ := postThing(t, other, "k1", body)
		return again, created() + createdOther()
	}

	t.Run("instances on either side of a key rotation replay each other's answers under one IdempotencySecret", func(t *testing.T) {
		again, created := retryAcross(t, []byte("an idempotency secret no rotation changes"))
		if again.StatusCode != http.StatusCreated || again.Header.Get("Idempotent-Replayed") != "true" || created != 1 {
			t.Fatalf("the retry after the rotation: %d replayed %q, %d created; want the first answer replayed, one created",
				again.StatusCode, again.Header.Get("Idempotent-Replayed"), created)
		}
	})

	t.Run("without an IdempotencySecret, the fingerprints move with the signing key", func(t *testing.T) {
		if again, created := retryAcross(t, nil); again.StatusCode != http.StatusUnprocessableEntity || created != 1 {
			t.Fatalf("the retry after the rotation: %d, %d created; want the 422 of a key reused for another request", again.StatusCode, created)
		}
	})

	t.Run("other keys, other fingerprints", func(t *testing.T) {
		mine := fingerprintOf(t, testSecret)
		if other := fingerprintOf(t, []byte("another-secret-of-at-least-32-bytes")); other == mine {
			t.Errorf("routers with different token keys keep the same fingerprint %s", mine)
		}
		if a, b := fingerprintOf(t, nil), fingerprintOf(t, nil); a == b || a == mine {
			t.Errorf("routers without token keys keep the fingerprints %s and %s; want secrets of their own", a, b)
		}
	})

	t.Run("a fingerprint is no digest anyone could compute", func(t *testing.T) {
		fp := fingerprintOf(t, testSecret)
		for _, guess := range []string{body, `{"Body":{"name":"a"}}`, `{"name":"a"}` + "\n"} {
			plain := sha256.Sum256([]byte(guess))
			zero := hmac.New(sha256.New, make([]byte, 32))
			zero.Write([]byte(guess))
			for name, digest := range map[string]string{"SHA-256": hex.EncodeToString(plain[:]), "an HMAC under a zero key": hex.EncodeToString(zero.Sum(nil))} {
				if fp == digest {
					t.Errorf("the fingerprint is %s of %q", name, guess)
				}
			}
		}
	})
}

// TestTheLongestIdempotencyKeyIsTaken sends keys of the longest length,
// 255 characters, bare and as a string (whose quotes count): each is
// taken, and its retry replayed.
func TestTheLongestIdempotencyKeyIsTaken(t *testing.T) {
	t.Parallel()
	r, created := idempotentRouter(t, nil, nil)
	for i, key := range []string{strings.Repeat("k", 255), `"` + strings.Repeat("q", 253) + `"`} {
		for try, replayed := range []string{"", "true"} {
			resp, body := postThing(t, r, key, `{"name":"a"}`)
			if resp.StatusCode != http.StatusCreated || resp.Header.Get("Idempotent-Replayed") != replayed || created() != i+1 {
				t.Fatalf("key %d, request %d: %d replayed %q, %d created; want 201 replayed %q: %s",
					i, try, resp.StatusCode, resp.Header.Get("Idempotent-Replayed"), created(), replayed, body)
			}
		}
	}
}
