package token_test

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/asapjs/fiber-template/platform/servicetest"
	"github.com/asapjs/fiber-template/platform/token"
)

// newKeys makes n Ed25519 keys as PEM and parses them.
func newKeys(t *testing.T, n int) ([]byte, *token.Keys) {
	t.Helper()
	var pemKeys []byte
	for range n {
		p, err := token.GenerateEd25519()
		if err != nil {
			t.Fatal(err)
		}
		pemKeys = append(pemKeys, p...)
	}
	keys, err := token.ParseKeys(pemKeys)
	if err != nil {
		t.Fatal(err)
	}
	return pemKeys, keys
}

// claimsAt are the claims of an access token issued at iat for ttl.
func claimsAt(iat time.Time, ttl time.Duration) *token.Claims {
	return &token.Claims{
		RegisteredClaims: jwt.RegisteredClaims{
			Subject: "7", ID: "jti-1", Issuer: "svc", Audience: jwt.ClaimStrings{"api"},
			IssuedAt: jwt.NewNumericDate(iat), ExpiresAt: jwt.NewNumericDate(iat.Add(ttl)),
		},
		Role: "member", SessionID: "sid-1",
	}
}

// forge signs claims with header fields set or removed (nil) and key.
func forge(t *testing.T, method jwt.SigningMethod, key any, claims jwt.Claims, header map[string]any) string {
	t.Helper()
	return servicetest.SignJWT(t, method, key, claims, header)
}

// base64URL is the alphabet of base64url (RFC 4648, section 5).
const base64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

func TestVerifyFollowsRFC8725AndRFC9068(t *testing.T) {
	pemKeys, keys := newKeys(t, 1)
	// The one key, to sign forgeries with the right key.
	private := privateOf(t, pemKeys)
	kid := keys.Signing().ID
	now := time.Now()
	const ttl = 15 * time.Minute
	good, err := keys.Sign(claimsAt(now, ttl))
	if err != nil {
		t.Fatal(err)
	}
	if c, err := keys.Verify(good, ttl); err != nil || c.Subject != "7" || c.SessionID != "sid-1" {
		t.Fatalf("a token it signed: %+v, %v", c, err)
	}
	without := func(mutate func(c *token.Claims)) *token.Claims {
		c := claimsAt(now, ttl)
		mutate(c)
		return c
	}
	_, other := newKeys(t, 1)
	refused := map[string]string{
		"a 30-year exp": forge(t, jwt.SigningMethodEdDSA, private, claimsAt(now, 30*365*24*time.Hour), map[string]any{"kid": kid}),
		"no sub":        forge(t, jwt.SigningMethodEdDSA, private, without(func(c *token.Claims) { c.Subject = "" }), map[string]any{"kid": kid}),
		"no iat":        forge(t, jwt.SigningMethodEdDSA, private, without(func(c *token.Claims) { c.IssuedAt = nil }), map[string]any{"kid": kid}),
		"no jti":        forge(t, jwt.SigningMethodEdDSA, private, without(func(c *token.Claims) { c.ID = "" }), map[string]any{"kid": kid}),
		"no sid":        forge(t, jwt.SigningMethodEdDSA, private, without(func(c *token.Claims) { c.SessionID = "" }), map[string]any{"kid": kid}),
		"no exp":        forge(t, jwt.SigningMethodEdDSA, private, without(func(c *token.Claims) { c.ExpiresAt = nil }), map[string]any{"kid": kid}),
		"expired":       forge(t, jwt.SigningMethodEdDSA, private, claimsAt(now.Add(-time.Hour), ttl), map[string]any{"kid": kid}),
		"iat ahead":     forge(t, jwt.SigningMethodEdDSA, private, claimsAt(now.Add(time.Hour), ttl), map[string]any{"kid": kid}),
		"a crit header": forge(t, jwt.SigningMethodEdDSA, private, claimsAt(now, ttl), map[string]any{"kid": kid, "crit": []string{"exp"}}),
		"typ JWT":       forge(t, jwt.SigningMethodEdDSA, private, claimsAt(now, ttl), map[string]any{"kid": kid, "typ": "JWT"}),
		"no typ":        forge(t, jwt.SigningMethodEdDSA, private, claimsAt(now, ttl), map[string]any{"kid": kid, "typ": nil}),
		"no kid":        forge(t, jwt.SigningMethodEdDSA, private, claimsAt(now, ttl), map[string]any{"kid": nil}),
		"another kid":   forge(t, jwt.SigningMethodEdDSA, private, claimsAt(now, ttl), map[string]any{"kid": other.Signing().ID}),
		"alg none":      forge(t, jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, claimsAt(now, ttl), map[string]any{"kid": kid}),
		// The public key, known to all, as an HMAC secret.
		"HS256 with the public key": forge(t, jwt.SigningMethodHS256, []byte(private.Public().(ed25519.PublicKey)), claimsAt(now, ttl), map[string]any{"kid": kid}),
		"another key's signature":   forge(t, jwt.SigningMethodEdDSA, privateOf(t, mustGenerate(t)), claimsAt(now, ttl), map[string]any{"kid": kid}),
		"tampered":                  good[:len(good)-4] + "AAAA",
		// The same signature with a bit of its last character's padding
		// set: one token has one spelling (RFC 4648, section 3.5).
		"a signature spelt another way": good[:len(good)-1] + string(base64URL[strings.IndexByte(base64URL, good[len(good)-1])^1]),
	}
	for name, raw := range refused {
		if c, err := keys.Verify(raw, ttl); err == nil {
			t.Errorf("%s: verified as %+v, want refused", name, c)
		}
	}
}

func TestRotation(t *testing.T) {
	oldPEM, old := newKeys(t, 1)
	newPEM := mustGenerate(t)
	rotated, err := token.ParseKeys(append(append([]byte{}, newPEM...), oldPEM...))
	if err != nil {
		t.Fatal(err)
	}
	retired, err := token.ParseKeys(newPEM)
	if err != nil {
		t.Fatal(err)
	}
	const ttl = time.Minute
	before, _ := old.Sign(claimsAt(time.Now(), ttl))
	after, _ := rotated.Sign(claimsAt(time.Now(), ttl))
	for _, tc := range []struct {
		name  string
		keys  *token.Keys
		raw   string
		valid bool
	}{
		{"a token of the old key, after the rotation", rotated, before, true},
		{"a token of the new key, after the rotation", rotated, after, true},
		{"a token of the old key, once it is removed", retired, before, false},
		{"a token of the new key, once the old is removed", retired, after, true},
	} {
		if _, err := tc.keys.Verify(tc.raw, ttl); (err == nil) != tc.valid {
			t.Errorf("%s: err %v, want valid %v", tc.name, err, tc.valid)
		}
	}
	if rotated.Signing().ID == old.Signing().ID || rotated.IDs()[1] != old.Signing().ID {
		t.Errorf("rotated kids %v, want the new key first, then %s", rotated.IDs(), old.Signing().ID)
	}
}

func TestJWKSPublishesPublicKeysOnly(t *testing.T) {
	_, keys := newKeys(t, 2)
	raw, err := json.Marshal(keys.PublicKeys())
	if err != nil {
		t.Fatal(err)
	}
	var set struct {
		Keys []map[string]string `json:"keys"`
	}
	if err := json.Unmarshal(raw, &set); err != nil || len(set.Keys) != 2 {
		t.Fatalf("JWKS %s: %v", raw, err)
	}
	for i, k := range set.Keys {
		if k["kty"] != "OKP" || k["crv"] != "Ed25519" || k["alg"] != "EdDSA" || k["use"] != "sig" || k["kid"] != keys.IDs()[i] || k["x"] == "" || k["d"] != "" {
			t.Errorf("JWK %d: %v", i, k)
		}
	}
	secret, err := token.NewSecret([]byte("a-secret-of-at-least-32-bytes-long!!"))
	if err != nil {
		t.Fatal(err)
	}
	if raw, _ := json.Marshal(secret.PublicKeys()); string(raw) != `{"keys":[]}` || secret.Published() {
		t.Errorf("a secret's JWKS %s, published %v; want none", raw, secret.Published())
	}
}

func TestParseKeysReadsJWK(t *testing.T) {
	seed := make([]byte, ed25519.SeedSize)
	if _, err := rand.Read(seed); err != nil {
		t.Fatal(err)
	}
	p := ed25519.NewKeyFromSeed(seed)
	x := base64.RawURLEncoding.EncodeToString(p.Public().(ed25519.PublicKey))
	d := base64.RawURLEncoding.EncodeToString(seed)
	keys, err := token.ParseKeys([]byte(`{"keys":[{"kty":"OKP","crv":"Ed25519","kid":"2026-11","x":"` + x + `","d":"` + d + `"}]}`))
	if err != nil || keys.Signing().ID != "2026-11" {
		t.Fatalf("a JWK Set: %v, %v", keys, err)
	}
	for name, bad := range map[string]string{
		"a public key alone":    `{"kty":"OKP","crv":"Ed25519","x":"` + x + `"}`,
		"x of another key":      `{"kty":"OKP","crv":"Ed25519","x":"` + strings.Repeat("A", 43) + `","d":"` + d + `"}`,
		"an RSA key":            `{"kty":"RSA","n":"AQAB","e":"AQAB"}`,
		"a certificate":         "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
		"text":                  "not a key",
		"nothing":               "  ",
		"two keys of one kid":   `{"keys":[{"kty":"OKP","crv":"Ed25519","kid":"k","d":"` + d + `"},{"kty":"OKP","crv":"Ed25519","kid":"k","d":"` + d + `"}]}`,
		"a key for another alg": `{"kty":"OKP","crv":"Ed25519","alg":"ES256","d":"` + d + `"}`,
	} {
		if _, err := token.ParseKeys([]byte(bad)); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
}

func mustGenerate(t *testing.T) []byte {
	t.Helper()
	p, err := token.GenerateEd25519()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// privateOf reads the first Ed25519 key of PEM keys, to forge with.
func privateOf(t *testing.T, pemKeys []byte) ed25519.PrivateKey {
	t.Helper()
	block, _ := pem.Decode(pemKeys)
	if block == nil {
		t.Fatal("no PEM block")
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	return k.(ed25519.PrivateKey)
}
