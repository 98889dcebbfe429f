package integration

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/asapjs/fiber-template/app"
)

// introspectionJSON is the answer of POST /auth/introspect.
type introspectionJSON struct {
	Active    bool     `json:"active"`
	TokenType string   `json:"token_type"`
	Subject   string   `json:"sub"`
	Role      string   `json:"role"`
	SessionID string   `json:"sid"`
	Issuer    string   `json:"iss"`
	Audience  []string `json:"aud"`
	ExpiresAt int64    `json:"exp"`
	IssuedAt  int64    `json:"iat"`
	ID        string   `json:"jti"`
}

func TestServicesIntrospectTokens(t *testing.T) {
	forEachUserBackend(t, testServicesIntrospectTokens)
}

func testServicesIntrospectTokens(t *testing.T, newDSN func(*testing.T) string) {
	const clientID, secret = "billing", "billing-secret-0123456789abcdef-0123"
	a := newUserAPIWith(t, newDSN(t), app.Options{IntrospectionClients: map[string]string{clientID: secret}})
	const email, password = "introspected@example.com", "introspected-pass-1"
	user := a.signUp(t, map[string]any{"email": email, "name": "Introspected", "password": password})
	login := a.loginPair(t, email, password)
	basic := "Basic " + base64.StdEncoding.EncodeToString([]byte(clientID+":"+secret))
	introspect := func(t *testing.T, auth string, form url.Values) response {
		t.Helper()
		rq := req{method: http.MethodPost, path: "/api/auth/introspect", body: form, header: map[string]string{}}
		if auth != "" {
			rq.header["Authorization"] = auth
		}
		return a.send(t, rq)
	}
	active := func(t *testing.T, tok string) introspectionJSON {
		t.Helper()
		res := introspect(t, basic, url.Values{"token": {tok}})
		var out introspectionJSON
		res.decode(t, http.StatusOK, &out)
		if res.header.Get("Cache-Control") != "no-store" {
			t.Errorf("Cache-Control %q, want no-store", res.header.Get("Cache-Control"))
		}
		if !out.Active && string(res.body) != `{"active":false}` {
			t.Errorf("an inactive token's answer says more than active: false: %s", res.body)
		}
		return out
	}

	t.Run("a live access token is active, with its claims", func(t *testing.T) {
		got := active(t, login.AccessToken)
		want := introspectionJSON{Active: true, TokenType: "bearer", Subject: strconv.FormatInt(user.ID, 10), Role: "member",
			SessionID: sessionIDOf(t, login.AccessToken), Issuer: app.DefaultIssuer, Audience: []string{app.DefaultAudience}}
		if got.Active != want.Active || got.TokenType != want.TokenType || got.Subject != want.Subject || got.Role != want.Role ||
			got.SessionID != want.SessionID || got.Issuer != want.Issuer || len(got.Audience) != 1 || got.Audience[0] != want.Audience[0] {
			t.Errorf("introspection %+v, want %+v", got, want)
		}
		if got.ExpiresAt-got.IssuedAt != int64(app.DefaultAccessTokenTTL/time.Second) || got.ID == "" {
			t.Errorf("exp %d, iat %d, jti %q: want the access token's lifetime and its id", got.ExpiresAt, got.IssuedAt, got.ID)
		}
		if !active(t, login.AccessToken).Active {
			t.Error("a second introspection of the token is not active")
		}
	})

	t.Run("the hint is only a hint", func(t *testing.T) {
		res := introspect(t, basic, url.Values{"token": {login.AccessToken}, "token_type_hint": {"refresh_token"}})
		var out introspectionJSON
		if res.decode(t, http.StatusOK, &out); !out.Active {
			t.Error("an access token hinted as a refresh token is not active")
		}
		introspect(t, basic, url.Values{"token": {login.AccessToken}, "token_type_hint": {"id_token"}}).wantStatus(t, http.StatusUnprocessableEntity)
	})

	t.Run("what is not a live access token of this service is inactive", func(t *testing.T) {
		claims := jwtClaimsOf(t, login.AccessToken)
		foreign, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString([]byte("another-service-secret-0123456789abcdef"))
		if err != nil {
			t.Fatal(err)
		}
		for name, tok := range map[string]string{
			"garbage":                         "not-a-token",
			"a refresh token":                 login.RefreshToken,
			"a token signed by another key":   foreign,
			"the token with a changed byte":   login.AccessToken[:len(login.AccessToken)-2] + "AA",
			"the token without its signature": login.AccessToken[:len(login.AccessToken)-40],
		} {
			if active(t, tok).Active {
				t.Errorf("%s is active", name)
			}
		}
	})

	t.Run("a token of this service and a live session that lives longer than an access token is inactive", func(t *testing.T) {
		// The login's own claims signed again with the service's key: only
		// the lifetime differs from a token the service issued.
		resigned := func(lifetime time.Duration) string {
			c := jwtClaimsOf(t, login.AccessToken)
			now := time.Now()
			c.IssuedAt, c.ExpiresAt = jwt.NewNumericDate(now), jwt.NewNumericDate(now.Add(lifetime))
			return mintToken(t, userTestSecret, c)
		}
		if !active(t, resigned(app.DefaultAccessTokenTTL)).Active {
			t.Fatal("the login's claims signed again with the service's key are not active")
		}
		// RFC 9068: a leaked token that never expires is not one the
		// service accepts, whoever signed it.
		if got := active(t, resigned(30*365*24*time.Hour)); got.Active {
			t.Errorf("a token living 30 years is active: %+v", got)
		}
	})

	t.Run("only clients may ask", func(t *testing.T) {
		for name, auth := range map[string]string{
			"no credentials":               "",
			"the user's own bearer token":  "Bearer " + login.AccessToken,
			"a wrong secret":               "Basic " + base64.StdEncoding.EncodeToString([]byte(clientID+":"+secret+"x")),
			"another client with a secret": "Basic " + base64.StdEncoding.EncodeToString([]byte("shipping:"+secret)),
		} {
			res := introspect(t, auth, url.Values{"token": {login.AccessToken}})
			res.wantCode(t, http.StatusUnauthorized, "unauthorized")
			if got := res.header.Get("WWW-Authenticate"); got != `Basic realm="api"` {
				t.Errorf("%s: WWW-Authenticate %q, want the Basic challenge", name, got)
			}
		}
		// The form is the only body (RFC 7662, section 2.1).
		a.send(t, req{method: http.MethodPost, path: "/api/auth/introspect", header: map[string]string{"Authorization": basic},
			body: map[string]string{"token": login.AccessToken}}).wantStatus(t, http.StatusUnsupportedMediaType)
	})

	t.Run("an ended session's token turns inactive", func(t *testing.T) {
		other := a.loginPair(t, email, password)
		a.send(t, req{method: http.MethodDelete, path: "/api/auth/sessions/" + sessionIDOf(t, other.AccessToken), token: login.AccessToken}).
			wantStatus(t, http.StatusNoContent)
		if active(t, other.AccessToken).Active {
			t.Error("the ended session's token is still active")
		}
		if !active(t, login.AccessToken).Active {
			t.Error("the session that ended the other one turned inactive")
		}
	})
}

// TestIntrospectionWithoutClientsLetsNoneIn is the default: no
// INTROSPECTION_CLIENTS, so every request is a 401.
func TestIntrospectionWithoutClientsLetsNoneIn(t *testing.T) {
	t.Parallel()
	a := newUserAPI(t, "sqlite:"+filepath.Join(t.TempDir(), "app.db"))
	tok := a.adminToken(t)
	for _, auth := range []string{"", "Basic " + base64.StdEncoding.EncodeToString([]byte(":")), "Bearer " + tok} {
		a.send(t, req{method: http.MethodPost, path: "/api/auth/introspect", header: map[string]string{"Authorization": auth},
			body: url.Values{"token": {tok}}}).wantCode(t, http.StatusUnauthorized, "unauthorized")
	}
}
