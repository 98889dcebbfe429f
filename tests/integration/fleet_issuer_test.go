package integration

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/golang-jwt/jwt/v5"

	"github.com/asapjs/fiber-template/internal/testkit"
	"github.com/asapjs/fiber-template/platform/token"
)

// newKeyFile writes a new Ed25519 signing key into a key file of t's and
// returns the file and the key (PEM).
func newKeyFile(t *testing.T) (string, []byte) {
	t.Helper()
	keyFile := filepath.Join(t.TempDir(), "signing-keys.pem")
	key, err := token.GenerateEd25519()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, key, 0o600); err != nil {
		t.Fatal(err)
	}
	return keyFile, key
}

// issuerService is service A of a fleet: the built binary signing with
// Ed25519 keys of a key file, with PUBLIC_URL its own URL.
type issuerService struct {
	base, keyFile string
	env           map[string]string
	// stop ends the process and waits for its exit; start starts it again.
	stop func()
}

// Fleet users of A: an admin and a member.
const (
	fleetAdmin, fleetAdminPassword = "fleet-admin@example.com", "fleet-admin-pass-1"
)

// startIssuer starts A on dsn with a new key file, extra added to its
// configuration.
func startIssuer(t *testing.T, bin, dsn string, extra map[string]string) *issuerService {
	t.Helper()
	keyFile, _ := newKeyFile(t)
	port := testkit.Port(t)
	a := &issuerService{base: fmt.Sprintf("http://127.0.0.1:%d", port), keyFile: keyFile}
	a.env = map[string]string{
		"HOST": "127.0.0.1", "PORT": strconv.Itoa(port), "DATABASE_URL": dsn, "PUBLIC_URL": a.base,
		"JWT_SIGNING_KEYS_FILE": keyFile, "ADMIN_EMAIL": fleetAdmin, "ADMIN_PASSWORD": fleetAdminPassword,
		"AUTH_RATE_LIMIT": "0", "LOG_REQUESTS": "false",
	}
	for k, v := range extra {
		a.env[k] = v
	}
	a.start(t, bin)
	return a
}

// start runs A until a.stop.
func (a *issuerService) start(t *testing.T, bin string) {
	t.Helper()
	p := startAPI(t, bin, a.env)
	p.WaitOK(t, a.base+"/health-check")
	a.stop = p.Stop
}

// login returns the access and refresh tokens of a user of A.
func (a *issuerService) login(t *testing.T, email, password string) (access, refresh string) {
	t.Helper()
	var pair struct {
		AccessToken  string `json:"access_token"`
		RefreshToken string `json:"refresh_token"`
	}
	call(t, a.base, http.MethodPost, "/api/auth/login", "", nil,
		fmt.Sprintf(`{"username":%q,"password":%q}`, email, password)).decode(t, http.StatusOK, &pair)
	return pair.AccessToken, pair.RefreshToken
}

// TestAnIssuerSaysWhoItIs starts the built binary with Ed25519 keys and
// PUBLIC_URL: its tokens' iss is that URL, and it serves its metadata at
// both well-known places, naming its JWK Set and token endpoint, and its
// introspection endpoint once clients may use it. Without PUBLIC_URL
// neither is served and the iss stays a name.
func TestAnIssuerSaysWhoItIs(t *testing.T) {
	runsTheBinary(t)
	t.Parallel()
	bin := buildAPI(t)
	a := startIssuer(t, bin, "sqlite:"+filepath.Join(t.TempDir(), "app.db"),
		map[string]string{"INTROSPECTION_CLIENTS": "orders:orders-secret-0123456789abcdef-0123"})
	access, _ := a.login(t, fleetAdmin, fleetAdminPassword)
	claims := jwt.MapClaims{}
	if _, _, err := jwt.NewParser().ParseUnverified(access, claims); err != nil {
		t.Fatal(err)
	}
	if claims["iss"] != a.base {
		t.Errorf("iss %v, want PUBLIC_URL %s", claims["iss"], a.base)
	}
	for _, path := range []string{"/.well-known/openid-configuration", "/.well-known/oauth-authorization-server"} {
		var m token.Metadata
		res := call(t, a.base, http.MethodGet, path, "", nil, "")
		res.decode(t, http.StatusOK, &m)
		if m.Issuer != a.base || m.JWKSURI != a.base+"/.well-known/jwks.json" || m.TokenEndpoint != a.base+"/api/auth/login" ||
			m.IntrospectionEndpoint != a.base+"/api/auth/introspect" || !strings.Contains(strings.Join(m.AccessTokenAlgs, " "), "EdDSA") {
			t.Errorf("%s: %s", path, res.body)
		}
		if !strings.Contains(res.header.Get("Cache-Control"), "max-age") {
			t.Errorf("%s: Cache-Control %q", path, res.header.Get("Cache-Control"))
		}
	}
	// The document lists them.
	spec := string(call(t, a.base, http.MethodGet, "/api/docs/spec.json", "", nil, "").body)
	if !strings.Contains(spec, `"/.well-known/openid-configuration"`) {
		t.Error("the document does not list /.well-known/openid-configuration")
	}

	t.Run("without PUBLIC_URL there is no metadata and the iss is a name", func(t *testing.T) {
		t.Parallel()
		port := testkit.Port(t)
		base := fmt.Sprintf("http://127.0.0.1:%d", port)
		env := map[string]string{}
		for k, v := range a.env {
			env[k] = v
		}
		delete(env, "PUBLIC_URL")
		env["PORT"], env["DATABASE_URL"] = strconv.Itoa(port), "sqlite:"+filepath.Join(t.TempDir(), "app.db")
		startAPI(t, bin, env).WaitOK(t, healthCheck(port))
		if res := call(t, base, http.MethodGet, "/.well-known/openid-configuration", "", nil, ""); res.status != http.StatusNotFound {
			t.Errorf("openid-configuration without PUBLIC_URL: %d, want 404", res.status)
		}
		tok := decodeToken(t, call(t, base, http.MethodPost, "/api/auth/login", "", nil,
			fmt.Sprintf(`{"username":%q,"password":%q}`, fleetAdmin, fleetAdminPassword)))
		claims := jwt.MapClaims{}
		if _, _, err := jwt.NewParser().ParseUnverified(tok, claims); err != nil || claims["iss"] != "fiber-template" {
			t.Errorf("iss %v (%v), want fiber-template", claims["iss"], err)
		}
	})
}
