package integration

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/asapjs/fiber-template/internal/testkit"
	"github.com/asapjs/fiber-template/platform/servicetest"
	"github.com/asapjs/fiber-template/platform/token"
)

// resourceServer is service B of a fleet: the built binary trusting an
// issuer's tokens (AUTH_ISSUER), with a database of its own.
type resourceServer struct{ base string }

// startResourceServer starts B on dsn with config added to its
// configuration; PUBLIC_URL is its own URL.
func startResourceServer(t *testing.T, bin, dsn string, config map[string]string) resourceServer {
	t.Helper()
	port := testkit.Port(t)
	b := resourceServer{base: fmt.Sprintf("http://127.0.0.1:%d", port)}
	env := map[string]string{
		"HOST": "127.0.0.1", "PORT": strconv.Itoa(port), "DATABASE_URL": dsn, "PUBLIC_URL": b.base, "LOG_REQUESTS": "false",
	}
	for k, v := range config {
		env[k] = v
	}
	startAPI(t, bin, env).WaitOK(t, b.base+"/health-check")
	return b
}

// identityJSON is the answer of GET /auth/me.
type identityJSON struct {
	Subject  string   `json:"sub"`
	Roles    []string `json:"roles"`
	Issuer   string   `json:"iss"`
	Audience []string `json:"aud"`
	Expires  int64    `json:"exp"`
}

// TestAFleetTrustsOneIssuer runs two processes of the built binary: A, an
// issuer (Ed25519 keys, PUBLIC_URL), and B, a resource server with
// AUTH_ISSUER set to A's URL and no users of its own. A's user tokens work
// on B; tokens of another key, issuer or audience, expired or with
// another alg are 401s; the accounts routes are 404 on B and gone from
// its document; after keys rotate and a restart of A, B takes the new
// key's tokens without a restart; with introspection, a logout on A is
// refused by B within the cache time; and no token makes B fetch a URL it
// names.
func TestAFleetTrustsOneIssuer(t *testing.T) {
	runsTheBinary(t)
	forEachUserBackend(t, testAFleetTrustsOneIssuer)
}

func testAFleetTrustsOneIssuer(t *testing.T, newDSN func(*testing.T) string) {
	const clientID, clientSecret = "orders", "orders-secret-0123456789abcdef-0123"
	bin := buildAPI(t)
	a := startIssuer(t, bin, newDSN(t), map[string]string{"INTROSPECTION_CLIENTS": clientID + ":" + clientSecret})
	b := startResourceServer(t, bin, newDSN(t), map[string]string{"AUTH_ISSUER": a.base, "AUTH_JWKS_MIN_REFRESH": "1s"})
	// B2 also asks A about every token, keeping each answer a second.
	b2 := startResourceServer(t, bin, newDSN(t), map[string]string{
		"AUTH_ISSUER": a.base, "AUTH_INTROSPECTION_URL": a.base + "/api/auth/introspect",
		"AUTH_INTROSPECTION_CLIENT_ID": clientID, "AUTH_INTROSPECTION_CLIENT_SECRET": clientSecret, "AUTH_INTROSPECTION_CACHE": "1s",
	})
	// B3 keeps the accounts example: its admin routes check A's roles.
	b3 := startResourceServer(t, bin, newDSN(t), map[string]string{"AUTH_ISSUER": a.base, "AUTH_KEEP_ACCOUNTS": "true", "AUTH_RATE_LIMIT": "0"})

	call(t, a.base, http.MethodPost, "/api/users", "", nil, `{"email":"member@example.com","name":"Member","password":"member-pass-123"}`).wantUser(t, http.StatusCreated)
	admin, adminRefresh := a.login(t, fleetAdmin, fleetAdminPassword)
	member, _ := a.login(t, "member@example.com", "member-pass-123")

	t.Run("A's tokens work on B", func(t *testing.T) {
		var me identityJSON
		call(t, b.base, http.MethodGet, "/api/auth/me", admin, nil, "").decode(t, http.StatusOK, &me)
		if me.Subject != "1" || strings.Join(me.Roles, ",") != "admin" || me.Issuer != a.base || strings.Join(me.Audience, ",") != "fiber-template-api" || me.Expires < time.Now().Unix() {
			t.Errorf("B's /auth/me of A's admin: %+v", me)
		}
		if res := call(t, b3.base, http.MethodGet, "/api/users", admin, nil, ""); res.status != http.StatusOK {
			t.Errorf("a Roles(admin) route on B with A's admin token: %d %s", res.status, res.body)
		}
		if res := call(t, b3.base, http.MethodGet, "/api/users", member, nil, ""); res.status != http.StatusForbidden {
			t.Errorf("a Roles(admin) route on B with A's member token: %d, want 403", res.status)
		}
		// B3's own users log in there, and its own tokens work beside A's.
		call(t, b3.base, http.MethodPost, "/api/users", "", nil, `{"email":"local@example.com","name":"Local","password":"local-pass-123"}`).wantUser(t, http.StatusCreated)
		local := decodeToken(t, call(t, b3.base, http.MethodPost, "/api/auth/login", "", nil, `{"username":"local@example.com","password":"local-pass-123"}`))
		var own identityJSON
		call(t, b3.base, http.MethodGet, "/api/auth/me", local, nil, "").decode(t, http.StatusOK, &own)
		if own.Issuer != b3.base || strings.Join(own.Roles, ",") != "member" {
			t.Errorf("B3's own token on B3: %+v", own)
		}
		if res := call(t, b.base, http.MethodGet, "/api/auth/me", local, nil, ""); res.status != http.StatusUnauthorized {
			t.Errorf("B3's own token on B: %d, want 401", res.status)
		}
	})

	t.Run("without a token B names its issuer", func(t *testing.T) {
		res := call(t, b.base, http.MethodGet, "/api/auth/me", "", nil, "")
		want := fmt.Sprintf(`Bearer realm=%q, resource_metadata="%s/.well-known/oauth-protected-resource"`, a.base, b.base)
		if res.status != http.StatusUnauthorized || res.header.Get("WWW-Authenticate") != want {
			t.Errorf("%d %q, want 401 and %q", res.status, res.header.Get("WWW-Authenticate"), want)
		}
		var pr token.ProtectedResource
		call(t, b.base, http.MethodGet, "/.well-known/oauth-protected-resource", "", nil, "").decode(t, http.StatusOK, &pr)
		if pr.Resource != b.base || strings.Join(pr.AuthorizationServers, ",") != a.base {
			t.Errorf("the protected resource metadata: %+v", pr)
		}
	})

	t.Run("the accounts example is not on B", func(t *testing.T) {
		for _, r := range []struct{ method, path, body string }{
			{http.MethodPost, "/api/users", `{"email":"x@example.com","name":"X","password":"x-pass-12345"}`},
			{http.MethodPost, "/api/auth/login", `{"username":"x@example.com","password":"x-pass-12345"}`},
			{http.MethodGet, "/api/users", ""},
		} {
			if res := call(t, b.base, r.method, r.path, admin, nil, r.body); res.status != http.StatusNotFound {
				t.Errorf("%s %s on B: %d, want 404", r.method, r.path, res.status)
			}
		}
		spec := string(call(t, b.base, http.MethodGet, "/api/docs/spec.json", "", nil, "").body)
		if strings.Contains(spec, `"/api/auth/login"`) || strings.Contains(spec, `"/api/users"`) || !strings.Contains(spec, `"/api/auth/me"`) {
			t.Error("B's document lists the accounts routes, or not /api/auth/me")
		}
		if !strings.Contains(spec, `"openIdConnectUrl":"`+a.base+`/.well-known/openid-configuration"`) {
			t.Error("B's document does not send its docs UI to log in at A")
		}
	})

	t.Run("hostile tokens are 401 on B", func(t *testing.T) {
		pem, err := os.ReadFile(a.keyFile)
		if err != nil {
			t.Fatal(err)
		}
		aKeys, err := token.ParseKeys(pem)
		if err != nil {
			t.Fatal(err)
		}
		_, otherPriv, _ := ed25519.GenerateKey(rand.Reader)
		now := time.Now()
		good := func() jwt.MapClaims {
			return jwt.MapClaims{"iss": a.base, "aud": []string{"fiber-template-api"}, "sub": "1", "role": "admin", "jti": "j", "sid": "s",
				"iat": now.Unix(), "exp": now.Add(5 * time.Minute).Unix()}
		}
		signA := func(mc jwt.MapClaims) string {
			return servicetest.SignJWT(t, jwt.SigningMethodEdDSA, aKeyPrivate(t, pem), mc, map[string]any{"kid": aKeys.Signing().ID})
		}
		if res := call(t, b.base, http.MethodGet, "/api/auth/me", signA(good()), nil, ""); res.status != http.StatusOK {
			t.Fatalf("a token the test signed with A's key: %d %s", res.status, res.body)
		}
		withClaim := func(k string, v any) jwt.MapClaims { mc := good(); mc[k] = v; return mc }
		x := aKeys.PublicKeys().Keys[0].X
		for name, raw := range map[string]string{
			"another key, A's kid":           servicetest.SignJWT(t, jwt.SigningMethodEdDSA, otherPriv, good(), map[string]any{"kid": aKeys.Signing().ID}),
			"another issuer":                 signA(withClaim("iss", "http://127.0.0.1:1")),
			"another audience":               signA(withClaim("aud", "billing-api")),
			"expired":                        signA(withClaim("exp", now.Add(-time.Minute).Unix())),
			"alg HS256, A's public key":      servicetest.SignJWT(t, jwt.SigningMethodHS256, []byte(x), good(), map[string]any{"kid": aKeys.Signing().ID}),
			"alg none":                       strings.Join([]string{b64url(`{"alg":"none","typ":"at+jwt"}`), strings.Split(signA(good()), ".")[1], ""}, "."),
			"A's token with a changed claim": tamper(t, admin),
		} {
			res := call(t, b.base, http.MethodGet, "/api/auth/me", raw, nil, "")
			if res.status != http.StatusUnauthorized || !strings.Contains(res.header.Get("WWW-Authenticate"), `error="invalid_token"`) {
				t.Errorf("%s: %d %q, want 401 invalid_token", name, res.status, res.header.Get("WWW-Authenticate"))
			}
		}
	})

	t.Run("no token makes B fetch a URL it names", func(t *testing.T) {
		var fetched atomic.Int32
		trap := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fetched.Add(1) }))
		t.Cleanup(trap.Close)
		_, priv, _ := ed25519.GenerateKey(rand.Reader)
		claims := jwt.MapClaims{"iss": a.base, "aud": "fiber-template-api", "sub": "1", "iat": time.Now().Unix(), "exp": time.Now().Add(time.Minute).Unix()}
		for _, header := range []map[string]any{
			{"kid": "trap-1", "jku": trap.URL + "/jwks.json"},
			{"kid": "trap-2", "x5u": trap.URL + "/cert.pem"},
			{"kid": "trap-3", "jku": trap.URL + "/jwks.json", "x5u": trap.URL + "/cert.pem"},
		} {
			time.Sleep(1100 * time.Millisecond) // past AUTH_JWKS_MIN_REFRESH: the unknown kid refreshes A's keys
			raw := servicetest.SignJWT(t, jwt.SigningMethodEdDSA, priv, claims, header)
			if res := call(t, b.base, http.MethodGet, "/api/auth/me", raw, nil, ""); res.status != http.StatusUnauthorized {
				t.Errorf("a token with %v: %d, want 401", header, res.status)
			}
		}
		other := jwt.MapClaims{"iss": trap.URL, "aud": "fiber-template-api", "sub": "1", "iat": time.Now().Unix(), "exp": time.Now().Add(time.Minute).Unix()}
		if res := call(t, b.base, http.MethodGet, "/api/auth/me", servicetest.SignJWT(t, jwt.SigningMethodEdDSA, priv, other, nil), nil, ""); res.status != http.StatusUnauthorized {
			t.Errorf("a token whose iss is the trap: %d, want 401", res.status)
		}
		if n := fetched.Load(); n != 0 {
			t.Errorf("the URLs the tokens named were fetched %d times, want 0", n)
		}
	})

	t.Run("a logout on A is refused by B within the cache time", func(t *testing.T) {
		if res := call(t, b2.base, http.MethodGet, "/api/auth/me", admin, nil, ""); res.status != http.StatusOK {
			t.Fatalf("B with introspection on A's token: %d %s", res.status, res.body)
		}
		call(t, a.base, http.MethodPost, "/api/auth/logout", "", nil, fmt.Sprintf(`{"refresh_token":%q}`, adminRefresh))
		deadline := time.Now().Add(1*time.Second + 2*time.Second) // the cache time, and room for a loaded machine
		for {
			res := call(t, b2.base, http.MethodGet, "/api/auth/me", admin, nil, "")
			if res.status == http.StatusUnauthorized {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("B still accepts a logged-out token: %d", res.status)
			}
			time.Sleep(100 * time.Millisecond)
		}
		// B, without introspection, sees only the signature and expiry.
		if res := call(t, b.base, http.MethodGet, "/api/auth/me", admin, nil, ""); res.status != http.StatusOK {
			t.Errorf("B without introspection on a logged-out token: %d, want 200 until it expires", res.status)
		}
	})

	t.Run("after keys rotate and a restart of A, B takes the new key's tokens", func(t *testing.T) {
		if out, err := exec.Command(bin, "keys", "rotate", "-file", a.keyFile).CombinedOutput(); err != nil {
			t.Fatalf("keys rotate: %v\n%s", err, out)
		}
		a.stop()
		a.start(t, bin)
		rotated, _ := a.login(t, "member@example.com", "member-pass-123")
		if kidOf(t, rotated) == kidOf(t, member) {
			t.Fatal("after the rotation A still signs with the old key")
		}
		time.Sleep(1100 * time.Millisecond) // past AUTH_JWKS_MIN_REFRESH
		for name, tok := range map[string]string{"the new key": rotated, "the old key": member} {
			var me identityJSON
			call(t, b.base, http.MethodGet, "/api/auth/me", tok, nil, "").decode(t, http.StatusOK, &me)
			if me.Subject != "2" || strings.Join(me.Roles, ",") != "member" {
				t.Errorf("a token of %s: %+v", name, me)
			}
		}
	})
}

// aKeyPrivate is the Ed25519 private key of a PEM key file.
func aKeyPrivate(t *testing.T, pem []byte) ed25519.PrivateKey {
	t.Helper()
	k, err := jwt.ParseEdPrivateKeyFromPEM(pem)
	if err != nil {
		t.Fatal(err)
	}
	return k.(ed25519.PrivateKey)
}

func b64url(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

// tamper changes one character of a token's payload.
func tamper(t *testing.T, raw string) string {
	t.Helper()
	parts := strings.Split(raw, ".")
	payload := []byte(parts[1])
	if payload[5] == 'A' {
		payload[5] = 'B'
	} else {
		payload[5] = 'A'
	}
	return parts[0] + "." + string(payload) + "." + parts[2]
}
