package workflow

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/asapjs/fiber-template/internal/testkit"

	"github.com/asapjs/fiber-template/platform/servicetest"
)

// TestStarterMakesAResourceServer makes a service of a fleet as
// docs/starter.md says, in a copy of the repository: rename with --auth
// issuer and generate a resource. The copy has no accounts code, vets, and
// its quick tests pass, the generated test on PostgreSQL and SQLite among
// them. Then it runs this repository's binary as the issuer (PUBLIC_URL,
// a development Ed25519 key, a bootstrap admin) and the copy's binary
// trusting it: the resource's Roles route answers the issuer's admin 201
// and its member 403, and the accounts routes are 404 there.
func TestStarterMakesAResourceServer(t *testing.T) {
	onlyInTheTemplate(t)
	if testing.Short() {
		t.Skip("builds and tests a generated service; skipped with -short")
	}
	t.Parallel()
	dir := copyWorkTree(t)
	out := testkit.Go(t, dir, nil, "run", "./cmd/starter", "rename", "github.com/acme/orders", "--auth", "issuer")
	if !strings.Contains(out, "removed the accounts example") {
		t.Fatalf("rename --auth issuer said:\n%s", out)
	}
	testkit.Go(t, dir, nil, "run", "./cmd/starter", "resource", "orders", "customer:string", "status:enum(pending,paid)")
	for _, gone := range []string{"app/accounts", "app/sessions", "app/models/user.go", "app/controllers/users.go",
		"cmd/api/users.go", "migrations/20250601000000_create_users.go", "tests/integration/users_service_test.go"} {
		if _, err := os.Stat(filepath.Join(dir, gone)); !os.IsNotExist(err) {
			t.Errorf("%s is still there (%v)", gone, err)
		}
	}
	testkit.Go(t, dir, nil, "vet", "./...")
	testkit.Go(t, dir, nil, "test", "-count=1", "./app/...", "./cmd/api", "./migrations")
	out = testkit.Go(t, dir, nil, "test", "-count=1", "-v", "-run", "^TestOrdersResource$", "./tests/integration")
	for _, backend := range []string{"on_PostgreSQL", "on_SQLite"} {
		if !strings.Contains(out, "--- PASS: TestOrdersResource/"+backend+" ") {
			t.Errorf("the generated test did not pass on %s:\n%s", backend, out)
		}
	}

	issuerBin := testkit.Build(t, "./cmd/api", nil)
	serverBin := filepath.Join(t.TempDir(), "orders")
	testkit.Go(t, dir, nil, "build", "-o", serverBin, "./cmd/api")
	port := strconv.Itoa(testkit.Port(t))
	issuer := "http://127.0.0.1:" + port
	const adminPassword = "issuer-admin-0123"
	testkit.Start(t, issuerBin, append(os.Environ(), "HOST=127.0.0.1", "PORT="+port, "PUBLIC_URL="+issuer,
		"APP_ENV=development", "DATABASE_URL=sqlite:"+filepath.Join(t.TempDir(), "a.db"), "LOG_REQUESTS=false",
		"AUTH_RATE_LIMIT=0", "ADMIN_EMAIL=admin@example.com", "ADMIN_PASSWORD="+adminPassword)).WaitOK(t, issuer+"/livez")
	// The copy's audience is its own; the template's issuer names its
	// own in the tokens, which AUTH_AUDIENCE accepts.
	server := testkit.ServeBinary(t, serverBin, "APP_ENV=development", "AUTH_ISSUER="+issuer, "AUTH_AUDIENCE=fiber-template-api",
		"DATABASE_URL=sqlite:"+filepath.Join(t.TempDir(), "b.db"), "LOG_REQUESTS=false")

	if got := call(t, http.MethodPost, issuer+"/api/users", "", map[string]any{"email": "member@example.com", "name": "Member", "password": "member-password-0123"}); got.Status != http.StatusCreated {
		t.Fatalf("sign-up at the issuer: %d %s", got.Status, got.Body)
	}
	admin, member := issuerToken(t, issuer, "admin@example.com", adminPassword), issuerToken(t, issuer, "member@example.com", "member-password-0123")
	order := map[string]any{"customer": "Ann", "status": "paid"}
	for _, tc := range []struct {
		method, path, token string
		body                any
		want                int
	}{
		{http.MethodGet, "/api/orders", "", nil, http.StatusUnauthorized},
		{http.MethodGet, "/api/orders", member, nil, http.StatusOK},
		{http.MethodPost, "/api/orders", member, order, http.StatusForbidden},
		{http.MethodPost, "/api/orders", admin, order, http.StatusCreated},
		{http.MethodGet, "/api/users", admin, nil, http.StatusNotFound},
		{http.MethodPost, "/api/users", "", map[string]any{"email": "x@example.com", "name": "X", "password": "x-password-0123"}, http.StatusNotFound},
		{http.MethodGet, "/api/auth/me", member, nil, http.StatusOK},
	} {
		if got := call(t, tc.method, server+tc.path, tc.token, tc.body); got.Status != tc.want {
			t.Errorf("%s %s (token %t): %d, want %d; body %s", tc.method, tc.path, tc.token != "", got.Status, tc.want, got.Body)
		}
	}
}

// call sends one request, with a JSON body unless body is nil, and returns
// the answer whatever its status.
func call(t *testing.T, method, url, token string, body any) servicetest.Response {
	t.Helper()
	var data []byte
	if body != nil {
		var err error
		if data, err = json.Marshal(body); err != nil {
			t.Fatal(err)
		}
	}
	req, err := http.NewRequest(method, url, bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return servicetest.Fetch(t, req)
}

// issuerToken logs in at the issuer with the password grant and returns
// the access token.
func issuerToken(t *testing.T, issuer, email, password string) string {
	t.Helper()
	form := url.Values{"grant_type": {"password"}, "username": {email}, "password": {password}}
	req, err := http.NewRequest(http.MethodPost, issuer+"/api/auth/login", strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res := servicetest.Fetch(t, req)
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.Unmarshal(res.Body, &tok); err != nil || tok.AccessToken == "" {
		t.Fatalf("login of %s at the issuer: %d %s (%v)", email, res.Status, res.Body, err)
	}
	return tok.AccessToken
}
