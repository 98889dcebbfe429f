package integration

import (
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	jwtware "github.com/gofiber/contrib/jwt"
	"github.com/gofiber/fiber/v2"
	"github.com/golang-jwt/jwt/v5"

	"github.com/asapjs/fiber-template/internal/testkit"
	"github.com/asapjs/fiber-template/platform/token"
)

// TestAnotherServiceVerifiesByJWKSAlone starts the service with Ed25519
// keys in a key file and, beside it, a minimal Fiber app that knows nothing
// but the service's JWKS URL, as a team's other service would: it accepts
// a logged-in user's access token, refuses a tampered, expired or
// algorithm-confused one, and keeps accepting tokens across a key rotation
// (api keys rotate, then a restart); once the old key is retired the
// service refuses the tokens it signed.
func TestAnotherServiceVerifiesByJWKSAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs cmd/api; skipped with -short")
	}
	t.Parallel()
	for _, b := range userBackends() {
		t.Run("on "+b.name, func(t *testing.T) {
			t.Parallel()
			testAnotherServiceVerifiesByJWKSAlone(t, b.dsn(t))
		})
	}
}

func testAnotherServiceVerifiesByJWKSAlone(t *testing.T, dsn string) {
	bin := buildAPI(t)
	keyFile, key := newKeyFile(t)
	port := testkit.Port(t)
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	env := map[string]string{
		"HOST": "127.0.0.1", "PORT": strconv.Itoa(port), "DATABASE_URL": dsn, "APP_ENV": "production",
		"JWT_SIGNING_KEYS_FILE": keyFile, "ADMIN_EMAIL": "jwks@example.com", "ADMIN_PASSWORD": "jwks-admin-pass-1",
		"AUTH_RATE_LIMIT": "0", "MIGRATE_ON_START": "true",
		// Production with signing keys needs these secrets, which no rotation changes.
		"PAGING_CURSOR_SECRET": "jwks-cursor-secret-of-32-bytes-or-more", "IDEMPOTENCY_SECRET": "jwks-idempotency-secret-of-32-bytes-or-more",
	}
	// start runs the service until stop, which waits for it to exit.
	start := func() (stop func()) {
		p := startAPI(t, bin, env)
		p.WaitOK(t, healthCheck(port))
		return func() {
			_ = p.Cmd.Process.Kill()
			<-p.Done()
		}
	}
	login := func() string {
		return decodeToken(t, call(t, base, http.MethodPost, "/api/auth/login", "", nil, `{"username":"jwks@example.com","password":"jwks-admin-pass-1"}`))
	}
	me := func(tok string) int { return call(t, base, http.MethodGet, "/api/users/me", tok, nil, "").status }

	stop := start()
	// The other service: these lines are all it needs (docs/security.md).
	other := fiber.New()
	other.Use(jwtware.New(jwtware.Config{JWKSetURLs: []string{base + "/.well-known/jwks.json"}}))
	other.Get("/whoami", func(c *fiber.Ctx) error {
		sub, err := c.Locals("user").(*jwt.Token).Claims.GetSubject()
		if err != nil {
			return err
		}
		return c.SendString(sub)
	})
	verify := func(tok string) (int, string) {
		req := httptest.NewRequest(http.MethodGet, "/whoami", nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		res, err := other.Test(req, 10000)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(body)
	}

	first := login()
	if status, sub := verify(first); status != http.StatusOK || sub != "1" {
		t.Fatalf("the other service on a logged-in user's token: %d %q, want 200 and the user's id", status, sub)
	}
	keys, err := token.ParseKeys(key)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	expired, err := keys.Sign(&token.Claims{RegisteredClaims: jwt.RegisteredClaims{
		Subject: "1", ID: "expired", IssuedAt: jwt.NewNumericDate(now.Add(-20 * time.Minute)), ExpiresAt: jwt.NewNumericDate(now.Add(-5 * time.Minute)),
	}, SessionID: "s"})
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(first, ".")
	forged := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"sub": "1", "exp": now.Add(time.Hour).Unix()})
	forged.Header["kid"] = keys.Signing().ID
	// The published key as an HMAC secret: what anyone could sign with.
	confused, err := forged.SignedString([]byte(keys.PublicKeys().Keys[0].X))
	if err != nil {
		t.Fatal(err)
	}
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	admin := base64.RawURLEncoding.EncodeToString([]byte(strings.Replace(string(payload), `"sub":"1"`, `"sub":"2"`, 1)))
	for name, tok := range map[string]string{
		"another subject in the payload": parts[0] + "." + admin + "." + parts[2],
		"a tampered signature":           parts[0] + "." + parts[1] + "." + strings.Repeat("A", len(parts[2])),
		"an expired token of the key":    expired,
		"HS256 naming the Ed25519 kid":   confused,
		"a token without its signature":  parts[0] + "." + parts[1] + ".",
	} {
		if status, _ := verify(tok); status != http.StatusUnauthorized {
			t.Errorf("the other service on %s: %d, want 401", name, status)
		}
	}

	// Rotation: a new key signs from the next start; the old one verifies.
	if out, err := exec.Command(bin, "keys", "rotate", "-file", keyFile).CombinedOutput(); err != nil {
		t.Fatalf("keys rotate: %v\n%s", err, out)
	}
	stop()
	stop = start()
	second := login()
	if kidOf(t, second) == kidOf(t, first) {
		t.Fatalf("after the rotation the token's kid is still %s", kidOf(t, first))
	}
	for name, tok := range map[string]string{"a token of the old key": first, "a token of the new key": second} {
		if status, _ := verify(tok); status != http.StatusOK {
			t.Errorf("the other service after the rotation, on %s: %d, want 200", name, status)
		}
		if status := me(tok); status != http.StatusOK {
			t.Errorf("the service after the rotation, on %s: %d, want 200", name, status)
		}
	}

	// Retiring the old key: the service refuses what it signed.
	if out, err := exec.Command(bin, "keys", "retire", "-file", keyFile, kidOf(t, first)).CombinedOutput(); err != nil {
		t.Fatalf("keys retire: %v\n%s", err, out)
	}
	stop()
	defer start()()
	if me(first) != http.StatusUnauthorized || me(second) != http.StatusOK {
		t.Errorf("after retiring the old key: its token %d, the new one's %d; want 401 and 200", me(first), me(second))
	}
}

// kidOf reads the kid header of a token without verifying it.
func kidOf(t *testing.T, raw string) string {
	t.Helper()
	tok, _, err := jwt.NewParser().ParseUnverified(raw, jwt.MapClaims{})
	if err != nil {
		t.Fatal(err)
	}
	kid, _ := tok.Header["kid"].(string)
	return kid
}
