package trust_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"log/slog"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/asapjs/fiber-template/platform/servicetest"
	"github.com/asapjs/fiber-template/platform/trust"
)

// issuer is a fake issuer: its metadata, its JWK Set (which a test
// changes) and its introspection endpoint, each request counted.
type issuer struct {
	url string
	mu  sync.Mutex
	// keys are the published JWKs; down makes every answer a 503.
	keys   []map[string]any
	down   bool
	cache  string
	active bool
	jwks   atomic.Int32
	asked  atomic.Int32
}

func newIssuer(t *testing.T) *issuer {
	t.Helper()
	is := &issuer{active: true}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/openid-configuration", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, map[string]any{"issuer": is.url, "jwks_uri": is.url + "/keys", "response_types_supported": []string{}})
	})
	mux.HandleFunc("GET /keys", func(w http.ResponseWriter, _ *http.Request) {
		is.jwks.Add(1)
		is.mu.Lock()
		defer is.mu.Unlock()
		if is.down {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		if is.cache != "" {
			w.Header().Set("Cache-Control", is.cache)
		}
		writeJSON(w, map[string]any{"keys": is.keys})
	})
	mux.HandleFunc("POST /introspect", func(w http.ResponseWriter, r *http.Request) {
		is.asked.Add(1)
		is.mu.Lock()
		defer is.mu.Unlock()
		if id, secret, ok := r.BasicAuth(); !ok || id != "orders" || secret != "orders-secret" || r.FormValue("token") == "" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		if is.down {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		writeJSON(w, map[string]any{"active": is.active})
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	is.url = srv.URL
	return is
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

func (is *issuer) set(f func(is *issuer)) {
	is.mu.Lock()
	defer is.mu.Unlock()
	f(is)
}

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

// edKey is an Ed25519 key and its JWK.
func edKey(t *testing.T, kid string) (ed25519.PrivateKey, map[string]any) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return priv, map[string]any{"kty": "OKP", "crv": "Ed25519", "x": b64(pub), "kid": kid, "use": "sig"}
}

// rsaKey is an RSA key and its JWK, without an alg (RS256 implied).
func rsaKey(t *testing.T, kid string) (*rsa.PrivateKey, map[string]any) {
	t.Helper()
	priv, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	return priv, map[string]any{"kty": "RSA", "n": b64(priv.N.Bytes()), "e": b64(big.NewInt(int64(priv.E)).Bytes()), "kid": kid}
}

// clock is a settable clock.
type clock struct{ now atomic.Int64 }

func (c *clock) Now() time.Time          { return time.Unix(0, c.now.Load()) }
func (c *clock) advance(d time.Duration) { c.now.Add(int64(d)) }

func newClock() *clock {
	c := &clock{}
	c.now.Store(time.Now().UnixNano())
	return c
}

// claims are the claims of a good token of is, at c's time.
func claims(is *issuer, c *clock) jwt.MapClaims {
	now := c.Now()
	return jwt.MapClaims{"iss": is.url, "aud": []string{"orders-api"}, "sub": "user-1", "iat": now.Unix(), "exp": now.Add(5 * time.Minute).Unix(),
		"scope": "openid orders:read", "realm_access": map[string]any{"roles": []any{"orders-admin", "member"}}}
}

func with(mc jwt.MapClaims, key string, value any) jwt.MapClaims {
	out := jwt.MapClaims{}
	for k, v := range mc {
		out[k] = v
	}
	if value == nil {
		delete(out, key)
	} else {
		out[key] = value
	}
	return out
}

func newVerifier(t *testing.T, is *issuer, c *clock, adjust func(*trust.Config)) *trust.Verifier {
	t.Helper()
	cfg := trust.Config{Issuer: is.url, Audiences: []string{"orders-api"}, RolesClaim: "realm_access.roles", MinRefresh: time.Minute, Now: c.Now,
		Logger: slog.New(slog.DiscardHandler)}
	if adjust != nil {
		adjust(&cfg)
	}
	v, err := trust.New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestVerifierAcceptsTheIssuersTokensOnly(t *testing.T) {
	t.Parallel()
	is := newIssuer(t)
	edPriv, edJWK := edKey(t, "ed-1")
	rsaPriv, rsaJWK := rsaKey(t, "rsa-1")
	is.set(func(is *issuer) { is.keys = []map[string]any{edJWK, rsaJWK} })
	c := newClock()
	v := newVerifier(t, is, c, nil)
	otherPriv, _ := edKey(t, "ed-1")
	good := claims(is, c)
	ed := func(mc jwt.MapClaims, header map[string]any) string {
		h := map[string]any{"kid": "ed-1"}
		for k, x := range header {
			h[k] = x
		}
		return servicetest.SignJWT(t, jwt.SigningMethodEdDSA, edPriv, mc, h)
	}

	got, err := v.VerifyToken(context.Background(), ed(good, nil))
	if err != nil {
		t.Fatalf("a good EdDSA token: %v", err)
	}
	if got.Subject != "user-1" || got.Role != "orders-admin" || !got.HasRole("member") || got.Scope != "openid orders:read" || got.Issuer != is.url {
		t.Errorf("claims %+v", got)
	}
	if _, err := v.VerifyToken(context.Background(), servicetest.SignJWT(t, jwt.SigningMethodRS256, rsaPriv, good, map[string]any{"kid": "rsa-1", "typ": "JWT"})); err != nil {
		t.Errorf("a good RS256 token typed JWT: %v", err)
	}

	// The public key as an HMAC secret: what anyone could sign with.
	confused := servicetest.SignJWT(t, jwt.SigningMethodHS256, []byte(edJWK["x"].(string)), good, map[string]any{"kid": "ed-1"})
	for _, tc := range []struct{ name, raw string }{
		{"another key with a known kid", servicetest.SignJWT(t, jwt.SigningMethodEdDSA, otherPriv, good, map[string]any{"kid": "ed-1"})},
		{"another issuer", ed(with(good, "iss", "https://evil.example.com"), nil)},
		{"the issuer with a trailing slash", ed(with(good, "iss", is.url+"/"), nil)},
		{"another audience", ed(with(good, "aud", "billing-api"), nil)},
		{"no audience", ed(with(good, "aud", nil), nil)},
		{"expired past the leeway", ed(with(good, "exp", c.Now().Add(-time.Minute).Unix()), nil)},
		{"no exp", ed(with(good, "exp", nil), nil)},
		{"issued in the future", ed(with(good, "iat", c.Now().Add(time.Minute).Unix()), nil)},
		{"no sub", ed(with(good, "sub", nil), nil)},
		{"alg HS256 with the public key as secret", confused},
		{"the RSA key's token relabelled PS256", servicetest.SignJWT(t, jwt.SigningMethodPS256, rsaPriv, good, map[string]any{"kid": "rsa-1"})},
		{"the Ed25519 kid on an RS256 signature", servicetest.SignJWT(t, jwt.SigningMethodRS256, rsaPriv, good, map[string]any{"kid": "ed-1"})},
		{"alg none", strings.Join(append([]string{b64([]byte(`{"alg":"none","typ":"at+jwt","kid":"ed-1"}`))}, strings.Split(ed(good, nil), ".")[1], ""), ".")},
		{"no kid with two keys published", ed(good, map[string]any{"kid": nil})},
		{"a crit header", ed(good, map[string]any{"crit": []string{"exp"}})},
		{"an ID token's typ", ed(good, map[string]any{"typ": "id_token+jwt"})},
	} {
		if _, err := v.VerifyToken(context.Background(), tc.raw); err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
	}
}

func TestVerifierRolesClaims(t *testing.T) {
	t.Parallel()
	is := newIssuer(t)
	priv, jwk := edKey(t, "only")
	is.set(func(is *issuer) { is.keys = []map[string]any{jwk} })
	c := newClock()
	for _, tc := range []struct {
		claim string
		value any
		want  []string
	}{
		{"role", "admin", []string{"admin"}},
		{"scope", "read write", []string{"read", "write"}},
		{"realm_access.roles", map[string]any{"roles": []any{"a", 7, "b"}}, []string{"a", "b"}},
		{"groups", []any{"ops"}, []string{"ops"}},
		{"realm_access.roles", "not an object", nil},
		{"https://example.com/roles", []any{"editor"}, []string{"editor"}},
	} {
		v := newVerifier(t, is, c, func(cfg *trust.Config) { cfg.RolesClaim = tc.claim })
		name := tc.claim
		if !strings.Contains(name, "://") {
			name, _, _ = strings.Cut(name, ".")
		}
		// The only key of the set verifies a token without a kid.
		raw := servicetest.SignJWT(t, jwt.SigningMethodEdDSA, priv, with(with(claims(is, c), "realm_access", nil), name, tc.value), map[string]any{"kid": nil})
		got, err := v.VerifyToken(context.Background(), raw)
		if err != nil {
			t.Fatalf("%s: %v", tc.claim, err)
		}
		if strings.Join(got.Roles, ",") != strings.Join(tc.want, ",") {
			t.Errorf("%s = %v: roles %q, want %q", tc.claim, tc.value, got.Roles, tc.want)
		}
	}
}

func TestVerifierKeepsTheIssuersKeys(t *testing.T) {
	t.Parallel()
	is := newIssuer(t)
	oldPriv, oldJWK := edKey(t, "old")
	newPriv, newJWK := edKey(t, "new")
	is.set(func(is *issuer) { is.keys = []map[string]any{oldJWK}; is.cache = "public, max-age=300" })
	c := newClock()
	v := newVerifier(t, is, c, nil)
	verify := func(priv ed25519.PrivateKey, kid string) error {
		_, err := v.VerifyToken(context.Background(), servicetest.SignJWT(t, jwt.SigningMethodEdDSA, priv, claims(is, c), map[string]any{"kid": kid}))
		return err
	}
	if err := verify(oldPriv, "old"); err != nil || is.jwks.Load() != 1 {
		t.Fatalf("the old key: %v after %d fetches, want accepted after 1", err, is.jwks.Load())
	}

	// A rotation: the new key's first token fetches the set again, at
	// once; tokens of unknown kids then fetch it no more than once per
	// MinRefresh, however many come.
	is.set(func(is *issuer) { is.keys = []map[string]any{newJWK, oldJWK} })
	c.advance(30 * time.Second)
	if err := verify(newPriv, "new"); err != nil || is.jwks.Load() != 2 {
		t.Fatalf("the new key: %v after %d fetches, want accepted after 2", err, is.jwks.Load())
	}
	for range 5 {
		if err := verify(newPriv, "unknown"); err == nil {
			t.Fatal("a kid the set does not have was accepted")
		}
	}
	if n := is.jwks.Load(); n != 2 {
		t.Fatalf("%d fetches for unknown kids within MinRefresh, want none past the 2", n)
	}
	c.advance(61 * time.Second)
	_ = verify(newPriv, "unknown")
	if n := is.jwks.Load(); n != 3 {
		t.Fatalf("%d fetches, want 3: one more for an unknown kid past MinRefresh", n)
	}

	// Down past the max-age: the keys fetched before still verify, and it
	// is asked again no more than once per MinRefresh.
	is.set(func(is *issuer) { is.down = true })
	c.advance(10 * time.Minute)
	for range 3 {
		if err := verify(newPriv, "new"); err != nil {
			t.Fatalf("the JWKS endpoint down: %v", err)
		}
	}
	if n := is.jwks.Load(); n != 4 {
		t.Errorf("%d fetches, want 4 (one more once the max-age passed)", n)
	}
	// Up again: the max-age of the answer decides the next fetch.
	is.set(func(is *issuer) { is.down = false })
	c.advance(2 * time.Minute)
	_ = verify(newPriv, "new")
	c.advance(4 * time.Minute)
	_ = verify(newPriv, "new")
	if n := is.jwks.Load(); n != 5 {
		t.Errorf("%d fetches, want 5: one once up, none within its max-age of 300s", n)
	}
}

func TestVerifierFollowsNoURLOfAToken(t *testing.T) {
	t.Parallel()
	is := newIssuer(t)
	_, jwk := edKey(t, "k")
	is.set(func(is *issuer) { is.keys = []map[string]any{jwk} })
	var elsewhere atomic.Int32
	trap := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		elsewhere.Add(1)
		writeJSON(w, map[string]any{"keys": []map[string]any{jwk}})
	}))
	t.Cleanup(trap.Close)
	c := newClock()
	v := newVerifier(t, is, c, nil)
	attacker, _ := edKey(t, "k")
	for _, h := range []map[string]any{
		{"kid": "evil", "jku": trap.URL + "/jwks"},
		{"kid": "evil", "x5u": trap.URL + "/cert"},
		{"kid": "evil", "jwk": jwk},
	} {
		c.advance(2 * time.Minute)
		if _, err := v.VerifyToken(context.Background(), servicetest.SignJWT(t, jwt.SigningMethodEdDSA, attacker, claims(is, c), h)); err == nil {
			t.Errorf("header %v: accepted", h)
		}
	}
	c.advance(2 * time.Minute)
	if _, err := v.VerifyToken(context.Background(), servicetest.SignJWT(t, jwt.SigningMethodEdDSA, attacker, with(claims(is, c), "iss", trap.URL), nil)); err == nil {
		t.Error("a token of another iss: accepted")
	}
	if n := elsewhere.Load(); n != 0 {
		t.Errorf("the URLs tokens named were fetched %d times, want 0", n)
	}
}

func TestVerifierIntrospects(t *testing.T) {
	t.Parallel()
	const cache = 200 * time.Millisecond
	for _, failOpen := range []bool{false, true} {
		is := newIssuer(t)
		priv, jwk := edKey(t, "k")
		is.set(func(is *issuer) { is.keys = []map[string]any{jwk} })
		c := newClock()
		v := newVerifier(t, is, c, func(cfg *trust.Config) {
			cfg.Introspection = trust.Introspection{URL: is.url + "/introspect", ClientID: "orders", ClientSecret: "orders-secret", Cache: cache, FailOpen: failOpen}
		})
		raw := servicetest.SignJWT(t, jwt.SigningMethodEdDSA, priv, claims(is, c), map[string]any{"kid": "k"})
		verify := func() error { _, err := v.VerifyToken(context.Background(), raw); return err }
		for range 3 {
			if err := verify(); err != nil {
				t.Fatalf("an active token: %v", err)
			}
		}
		if n := is.asked.Load(); n != 1 {
			t.Errorf("asked %d times within the cache time, want 1", n)
		}
		// A logout at the issuer: refused once the kept answer expires.
		is.set(func(is *issuer) { is.active = false })
		if err := verify(); err != nil {
			t.Errorf("the kept answer was not used: %v", err)
		}
		time.Sleep(cache + 50*time.Millisecond)
		if err := verify(); err == nil {
			t.Error("a token the issuer says is inactive: accepted")
		}
		// The issuer down: FailOpen decides.
		is.set(func(is *issuer) { is.active, is.down = true, true })
		time.Sleep(cache + 50*time.Millisecond)
		if err := verify(); (err == nil) != failOpen {
			t.Errorf("fail open %v, the issuer down: %v", failOpen, err)
		}
	}
}
