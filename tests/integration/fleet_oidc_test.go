package integration

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/golang-jwt/jwt/v5"
	"github.com/oauth2-proxy/mockoidc"
)

// realmUser is a user of the OpenID provider whose tokens carry their roles
// as Keycloak does: a list nested in realm_access.roles.
type realmUser struct {
	subject string
	roles   []string
}

func (u realmUser) ID() string { return u.subject }

func (u realmUser) Userinfo([]string) ([]byte, error) {
	return json.Marshal(map[string]any{"sub": u.subject})
}

func (u realmUser) Claims(_ []string, base *mockoidc.IDTokenClaims) (jwt.Claims, error) {
	return struct {
		*mockoidc.IDTokenClaims
		RealmAccess map[string][]string `json:"realm_access"`
	}{base, map[string][]string{"roles": u.roles}}, nil
}

// providerTokens logs user in at the provider m (the authorization code
// flow, as a browser and its client would) and returns the access and ID
// tokens it issues.
func providerTokens(t *testing.T, m *mockoidc.MockOIDC, user realmUser) (access, id string) {
	t.Helper()
	m.QueueUser(user)
	cfg := m.Config()
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := noRedirect.Get(m.AuthorizationEndpoint() + "?" + url.Values{
		"client_id": {cfg.ClientID}, "scope": {"openid"}, "response_type": {"code"}, "redirect_uri": {"http://127.0.0.1/callback"}, "state": {"s"},
	}.Encode())
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	loc, err := url.Parse(res.Header.Get("Location"))
	if err != nil || loc.Query().Get("code") == "" {
		t.Fatalf("authorize: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	res, err = http.PostForm(m.TokenEndpoint(), url.Values{
		"grant_type": {"authorization_code"}, "code": {loc.Query().Get("code")}, "client_id": {cfg.ClientID},
		"client_secret": {cfg.ClientSecret}, "redirect_uri": {"http://127.0.0.1/callback"},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var tokens struct {
		AccessToken string `json:"access_token"`
		IDToken     string `json:"id_token"`
	}
	if err := json.NewDecoder(res.Body).Decode(&tokens); err != nil || tokens.AccessToken == "" || tokens.IDToken == "" {
		t.Fatalf("token: %d %v %+v", res.StatusCode, err, tokens)
	}
	return tokens.AccessToken, tokens.IDToken
}

// TestAFleetTrustsAnOpenIDProvider points the built binary, as a resource
// server, at an OpenID provider nobody here wrote (oauth2-proxy's
// mockoidc, in the test process): its RS256 tokens, of its own claim
// shapes, verify against its discovered keys, and the roles it nests in
// realm_access.roles drive router.Roles (the admin-only user list of the
// accounts example, kept with AUTH_KEEP_ACCOUNTS).
func TestAFleetTrustsAnOpenIDProvider(t *testing.T) {
	runsTheBinary(t)
	forEachUserBackend(t, testAFleetTrustsAnOpenIDProvider)
}

func testAFleetTrustsAnOpenIDProvider(t *testing.T, newDSN func(*testing.T) string) {
	m, err := mockoidc.Run()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Shutdown() })
	bin := buildAPI(t)
	b := startResourceServer(t, bin, newDSN(t), map[string]string{
		"AUTH_ISSUER": m.Issuer(), "AUTH_AUDIENCE": m.Config().ClientID, "AUTH_ROLES_CLAIM": "realm_access.roles",
		"AUTH_KEEP_ACCOUNTS": "true", "AUTH_RATE_LIMIT": "0",
	})

	access, _ := providerTokens(t, m, realmUser{subject: "kc-user-1", roles: []string{"offline_access"}})
	var me identityJSON
	call(t, b.base, http.MethodGet, "/api/auth/me", access, nil, "").decode(t, http.StatusOK, &me)
	if me.Subject != "kc-user-1" || me.Issuer != m.Issuer() || len(me.Roles) != 0 {
		t.Errorf("the provider's access token on /auth/me: %+v", me)
	}

	_, adminID := providerTokens(t, m, realmUser{subject: "kc-admin", roles: []string{"offline_access", "admin"}})
	call(t, b.base, http.MethodGet, "/api/auth/me", adminID, nil, "").decode(t, http.StatusOK, &me)
	if me.Subject != "kc-admin" || strings.Join(me.Roles, ",") != "offline_access,admin" {
		t.Errorf("the provider's ID token of an admin on /auth/me: %+v", me)
	}
	if res := call(t, b.base, http.MethodGet, "/api/users", adminID, nil, ""); res.status != http.StatusOK {
		t.Errorf("a Roles(admin) route with a token whose realm_access.roles has admin: %d %s", res.status, res.body)
	}
	_, memberID := providerTokens(t, m, realmUser{subject: "kc-member", roles: []string{"user"}})
	if res := call(t, b.base, http.MethodGet, "/api/users", memberID, nil, ""); res.status != http.StatusForbidden {
		t.Errorf("a Roles(admin) route with a token whose realm_access.roles lacks admin: %d, want 403", res.status)
	}
	if res := call(t, b.base, http.MethodGet, "/api/users", access, nil, ""); res.status != http.StatusForbidden {
		t.Errorf("a Roles(admin) route with the provider's roleless access token: %d, want 403", res.status)
	}
	// Its tokens past their lifetime are refused.
	m.FastForward(2 * m.Config().AccessTTL)
	_, late := providerTokens(t, m, realmUser{subject: "kc-admin", roles: []string{"admin"}})
	if res := call(t, b.base, http.MethodGet, "/api/auth/me", late, nil, ""); res.status != http.StatusUnauthorized {
		t.Errorf("a token the provider issued in the future: %d, want 401", res.status)
	}
}
