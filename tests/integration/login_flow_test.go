package integration

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/asapjs/fiber-template/app"
	"github.com/asapjs/fiber-template/platform/problem"
	"github.com/asapjs/fiber-template/platform/router"
	"github.com/asapjs/fiber-template/platform/servicetest"
)

func TestLogin(t *testing.T) {
	forEachUserBackend(t, testLogin)
}

func testLogin(t *testing.T, newDSN func(*testing.T) string) {
	a := newUserAPI(t, newDSN(t))
	const password = "analytical-engine-1843"
	ada := a.signUp(t, map[string]any{"email": "ada@example.com", "name": "Ada Lovelace", "password": password})
	a.signUp(t, map[string]any{"email": "inactive@example.com", "name": "Inactive", "password": password, "active": false})

	accepted := []struct {
		name string
		body any
	}{
		{"the form Swagger UI sends, with grant_type=password", url.Values{"grant_type": {"password"}, "username": {"ada@example.com"}, "password": {password}}},
		{"a form without grant_type", url.Values{"username": {"ada@example.com"}, "password": {password}}},
		{"JSON", map[string]string{"username": "ada@example.com", "password": password}},
		{"JSON with grant_type password", map[string]string{"grant_type": "password", "username": "ada@example.com", "password": password}},
		{"the email in another case", url.Values{"username": {"ADA@Example.com"}, "password": {password}}},
	}
	for _, tt := range accepted {
		t.Run("a login with "+tt.name+" answers a bearer token for 15 minutes", func(t *testing.T) {
			res := a.send(t, req{method: http.MethodPost, path: "/api/auth/login", body: tt.body})
			var tok struct {
				AccessToken string `json:"access_token"`
				TokenType   string `json:"token_type"`
				ExpiresIn   int    `json:"expires_in"`
			}
			res.decode(t, http.StatusOK, &tok)
			if tok.TokenType != "bearer" || tok.ExpiresIn != 900 {
				t.Errorf("token_type %q, expires_in %d, want bearer and 900", tok.TokenType, tok.ExpiresIn)
			}
			if cc := res.header.Get("Cache-Control"); cc != "no-store" {
				t.Errorf("Cache-Control %q, want no-store", cc)
			}
			claims := &jwt.RegisteredClaims{}
			parsed, err := jwt.ParseWithClaims(tok.AccessToken, claims, func(*jwt.Token) (any, error) { return userTestSecret, nil },
				jwt.WithValidMethods([]string{"HS256"}), jwt.WithExpirationRequired(), jwt.WithIssuedAt())
			if err != nil || !parsed.Valid {
				t.Fatalf("token %q does not verify with the secret: %v", tok.AccessToken, err)
			}
			if claims.Subject != strconv.FormatInt(ada.ID, 10) {
				t.Errorf("sub %q, want the user id %d", claims.Subject, ada.ID)
			}
			if claims.IssuedAt == nil || time.Since(claims.IssuedAt.Time) > time.Minute {
				t.Errorf("iat %v, want about now", claims.IssuedAt)
			}
			if claims.IssuedAt != nil && claims.ExpiresAt.Sub(claims.IssuedAt.Time) != app.DefaultAccessTokenTTL {
				t.Errorf("exp - iat = %v, want 1h", claims.ExpiresAt.Sub(claims.IssuedAt.Time))
			}
			a.send(t, req{method: http.MethodGet, path: fmt.Sprintf("/api/users/%d", ada.ID), token: tok.AccessToken}).
				wantUser(t, http.StatusOK)
		})
	}

	// Every refused login must answer the same, so that an answer never
	// tells whether an email has an account.
	var refusal *problem.Problem
	refused := []struct {
		name string
		body any
	}{
		{"a wrong password", url.Values{"grant_type": {"password"}, "username": {"ada@example.com"}, "password": {"wrong-password-1"}}},
		{"a wrong password as JSON", map[string]string{"username": "ada@example.com", "password": "wrong-password-2"}},
		{"an unknown email", url.Values{"grant_type": {"password"}, "username": {"nobody@example.com"}, "password": {password}}},
		{"an inactive user's right password", url.Values{"grant_type": {"password"}, "username": {"inactive@example.com"}, "password": {password}}},
	}
	for _, tt := range refused {
		t.Run("a login with "+tt.name+" answers the one 401 problem", func(t *testing.T) {
			res := a.send(t, req{method: http.MethodPost, path: "/api/auth/login", body: tt.body})
			res.wantCode(t, http.StatusUnauthorized, "invalid_credentials")
			p := res.wantProblem(t, http.StatusUnauthorized)
			if refusal == nil {
				refusal = &p
			} else if p.Detail != refusal.Detail || p.Title != refusal.Title || p.Type != refusal.Type {
				t.Errorf("refusal %+v differs from the first one %+v", p, *refusal)
			}
		})
	}

	t.Run("a login with another grant type is a 422 naming grant_type, as the document's enum says", func(t *testing.T) {
		for _, body := range []any{
			url.Values{"grant_type": {"client_credentials"}, "username": {"ada@example.com"}, "password": {password}},
			map[string]string{"grant_type": "refresh_token", "username": "ada@example.com", "password": password},
		} {
			p := a.send(t, req{method: http.MethodPost, path: "/api/auth/login", body: body}).
				wantProblem(t, http.StatusUnprocessableEntity)
			servicetest.WantField(t, p, "grant_type")
		}
	})

	invalid := []struct {
		name   string
		body   any
		fields []string
	}{
		{"no username", url.Values{"grant_type": {"password"}, "password": {password}}, []string{"username"}},
		{"no password", map[string]string{"username": "ada@example.com"}, []string{"password"}},
		{"nothing", url.Values{}, []string{"username", "password"}},
	}
	for _, tt := range invalid {
		t.Run("a login with "+tt.name+" answers 422 naming the fields", func(t *testing.T) {
			a.send(t, req{method: http.MethodPost, path: "/api/auth/login", body: tt.body}).
				wantFields(t, http.StatusUnprocessableEntity, tt.fields...)
		})
	}

	t.Run("a login in a media type other than a form or JSON answers 415", func(t *testing.T) {
		a.send(t, req{method: http.MethodPost, path: "/api/auth/login", body: []byte("username=ada@example.com"), contentType: "text/plain"}).
			wantProblem(t, http.StatusUnsupportedMediaType)
	})
}

func TestAuthFailures(t *testing.T) {
	forEachUserBackend(t, testAuthFailures)
}

func testAuthFailures(t *testing.T, newDSN func(*testing.T) string) {
	a := newUserAPI(t, newDSN(t))
	valid := a.newUserToken(t, "holder@example.com")
	now := time.Now()
	// What the service's own tokens carry: issuer, audience, a session
	// (one never revoked) and the role the route needs.
	claims := func(exp time.Time) *router.Claims {
		return &router.Claims{RegisteredClaims: jwt.RegisteredClaims{Subject: "1", Issuer: app.DefaultIssuer,
			Audience: jwt.ClaimStrings{app.DefaultAudience}, IssuedAt: jwt.NewNumericDate(exp.Add(-app.DefaultAccessTokenTTL)),
			ExpiresAt: jwt.NewNumericDate(exp), ID: "minted-jti"}, Role: "admin", SessionID: "minted"}
	}
	// minted signs with the service's secret a token as the service's own,
	// valid for ten minutes, but for what edit changes.
	minted := func(edit func(c *router.Claims)) string {
		c := claims(now.Add(10 * time.Minute))
		edit(c)
		return mintToken(t, userTestSecret, c)
	}
	// mintedWith is minted with header fields set, or removed when nil.
	mintedWith := func(header map[string]any) string {
		return mintTokenWith(t, userTestSecret, claims(now.Add(10*time.Minute)), header)
	}
	unsigned, err := jwt.NewWithClaims(jwt.SigningMethodNone, claims(now.Add(time.Hour))).SignedString(jwt.UnsafeAllowNoneSignatureType)
	if err != nil {
		t.Fatal(err)
	}
	badCredentials := []struct {
		name   string
		header map[string]string
	}{
		{"no token", nil},
		{"a token that is not a JWT", map[string]string{"Authorization": "Bearer not-a-jwt"}},
		{"an expired token", map[string]string{"Authorization": "Bearer " + mintToken(t, userTestSecret, claims(now.Add(-time.Minute)))}},
		{"a token signed with another secret", map[string]string{"Authorization": "Bearer " + mintToken(t, []byte("some-other-secret-0123456789"), claims(now.Add(time.Hour)))}},
		{"a token without exp", map[string]string{"Authorization": "Bearer " + mintToken(t, userTestSecret, &jwt.RegisteredClaims{Subject: "1"})}},
		// RFC 8725 and RFC 9068: correctly signed, and refused all the same.
		{"a token living 30 years", map[string]string{"Authorization": "Bearer " + minted(func(c *router.Claims) {
			c.IssuedAt, c.ExpiresAt = jwt.NewNumericDate(now), jwt.NewNumericDate(now.AddDate(30, 0, 0))
		})}},
		{"a token without sub", map[string]string{"Authorization": "Bearer " + minted(func(c *router.Claims) { c.Subject = "" })}},
		{"a token without iat", map[string]string{"Authorization": "Bearer " + minted(func(c *router.Claims) { c.IssuedAt = nil })}},
		{"a token without jti", map[string]string{"Authorization": "Bearer " + minted(func(c *router.Claims) { c.ID = "" })}},
		{"a token with a crit header", map[string]string{"Authorization": "Bearer " + mintedWith(map[string]any{"crit": []string{"exp"}})}},
		{"a token typed JWT, not at+jwt", map[string]string{"Authorization": "Bearer " + mintedWith(map[string]any{"typ": "JWT"})}},
		{"a token without typ", map[string]string{"Authorization": "Bearer " + mintedWith(map[string]any{"typ": nil})}},
		{"a token of another issuer", map[string]string{"Authorization": "Bearer " + minted(func(c *router.Claims) { c.Issuer = "another-service" })}},
		{"a token without an issuer", map[string]string{"Authorization": "Bearer " + minted(func(c *router.Claims) { c.Issuer = "" })}},
		{"a token for another audience", map[string]string{"Authorization": "Bearer " + minted(func(c *router.Claims) { c.Audience = jwt.ClaimStrings{"another-api"} })}},
		{"a token without an audience", map[string]string{"Authorization": "Bearer " + minted(func(c *router.Claims) { c.Audience = nil })}},
		{"a token without a session id, which no logout could end", map[string]string{"Authorization": "Bearer " + minted(func(c *router.Claims) { c.SessionID = "" })}},
		{"an unsigned token", map[string]string{"Authorization": "Bearer " + unsigned}},
		{"a valid token under the Basic scheme", map[string]string{"Authorization": "Basic " + valid}},
		{"the bearer scheme without a token", map[string]string{"Authorization": "Bearer "}},
	}
	routes := []struct {
		method, path string
		body         any
	}{
		{http.MethodGet, "/api/users", nil},
		{http.MethodGet, "/api/users/1", nil},
		{http.MethodPut, "/api/users/1", map[string]any{"email": "x@example.com", "name": "X", "role": "guest", "active": true}},
		{http.MethodDelete, "/api/users/1", nil},
	}
	for _, rt := range routes {
		for _, bc := range badCredentials {
			t.Run(rt.method+" "+rt.path+" with "+bc.name+" answers 401", func(t *testing.T) {
				res := a.send(t, req{method: rt.method, path: rt.path, header: bc.header, body: rt.body})
				res.wantProblem(t, http.StatusUnauthorized)
				if res.header.Get("WWW-Authenticate") == "" {
					t.Error("401 without a WWW-Authenticate header")
				}
			})
		}
	}

	t.Run("a token the test signs with the service's secret is accepted", func(t *testing.T) {
		a.send(t, req{method: http.MethodGet, path: "/api/users", token: minted(func(*router.Claims) {})}).
			wantStatus(t, http.StatusOK)
	})
	t.Run("the bearer scheme is matched regardless of case", func(t *testing.T) {
		a.send(t, req{method: http.MethodGet, path: "/api/users", header: map[string]string{"Authorization": "bearer " + valid}}).
			wantStatus(t, http.StatusOK)
	})
}
