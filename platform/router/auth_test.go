package router_test

import (
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/asapjs/fiber-template/platform/router"
	"github.com/asapjs/fiber-template/platform/servicetest"
	"github.com/asapjs/fiber-template/platform/token"
)

var testSecret = []byte("test-secret-of-at-least-32-bytes!!")

type whoami struct {
	Subject string `json:"sub"`
}

func authRouter(t *testing.T, cacheSize int) *router.Router {
	return newRouter(t, router.Config{
		JWTSecret:      testSecret,
		TokenCacheSize: cacheSize,
		Controllers: []router.Controller{router.Group{Path: "/me", Declared: []router.Route{
			router.Get("/", func(c *router.Ctx, _ *struct{}) (*whoami, error) {
				return &whoami{Subject: c.Claims().Subject}, nil
			}, router.Auth()),
			router.Get("/public", func(c *router.Ctx, _ *struct{}) (*whoami, error) {
				if c.Claims() != nil {
					t.Error("a public route got claims")
				}
				return &whoami{}, nil
			}),
		}}},
	})
}

// sign signs claims as an access token (typ at+jwt) with method and key.
func sign(t *testing.T, method jwt.SigningMethod, key any, claims jwt.Claims) string {
	t.Helper()
	return servicetest.SignJWT(t, method, key, claims, nil)
}

// claimsFor are the claims of an access token of sub with the role,
// expiring in exp: every claim the router requires.
func claimsFor(sub, role string, exp time.Duration) *router.Claims {
	now := time.Now()
	return &router.Claims{
		RegisteredClaims: jwt.RegisteredClaims{Subject: sub, ID: "jti-" + sub, IssuedAt: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(now.Add(exp))},
		Role:             role,
		SessionID:        "sid-" + sub,
	}
}

func withToken(t *testing.T, r *router.Router, header string) (*http.Response, []byte) {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, "/me", nil)
	if header != "" {
		req.Header.Set("Authorization", header)
	}
	return do(t, r, req)
}

func TestAuthRoutesVerifyHS256Tokens(t *testing.T) {
	t.Parallel()
	for _, cache := range []int{-1, 0} {
		r := authRouter(t, cache)
		name := "with the token cache"
		if cache < 0 {
			name = "without the token cache"
		}
		t.Run(name, func(t *testing.T) {
			good := sign(t, jwt.SigningMethodHS256, testSecret, claimsFor("user-7", "", time.Hour))
			for range 2 { // the second pass is served from the cache when on
				resp, body := withToken(t, r, "Bearer "+good)
				if resp.StatusCode != http.StatusOK || decode[whoami](t, body).Subject != "user-7" {
					t.Fatalf("valid token: status %d body %s", resp.StatusCode, body)
				}
			}
			// The scheme is case-insensitive (RFC 9110, 11.1).
			for _, scheme := range []string{"bearer", "BEARER", "bEaReR"} {
				resp, body := withToken(t, r, scheme+" "+good)
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("scheme %q: status %d body %s", scheme, resp.StatusCode, body)
				}
			}

			parts := strings.Split(good, ".")
			edited := base64.RawURLEncoding.EncodeToString([]byte(`{"sub":"admin","exp":4102444800}`))
			noneHeader := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`))
			attacks := []struct{ name, header string }{
				{"no Authorization header", ""},
				{"a non-bearer scheme", "Basic dXNlcjpwYXNz"},
				{"an empty bearer token", "Bearer "},
				{"garbage", "Bearer not.a.token"},
				{"alg none", "Bearer " + noneHeader + "." + parts[1] + "."},
				{"alg none with the original signature", "Bearer " + noneHeader + "." + parts[1] + "." + parts[2]},
				{"HS384", "Bearer " + sign(t, jwt.SigningMethodHS384, testSecret, claimsFor("u", "", time.Hour))},
				{"HS512", "Bearer " + sign(t, jwt.SigningMethodHS512, testSecret, claimsFor("u", "", time.Hour))},
				{"another secret", "Bearer " + sign(t, jwt.SigningMethodHS256, []byte("another-secret-entirely-0123456789"), claimsFor("u", "", time.Hour))},
				{"an edited payload", "Bearer " + parts[0] + "." + edited + "." + parts[2]},
				{"an expired token", "Bearer " + sign(t, jwt.SigningMethodHS256, testSecret, claimsFor("u", "", -time.Minute))},
				{"a token without exp", "Bearer " + sign(t, jwt.SigningMethodHS256, testSecret, jwt.RegisteredClaims{Subject: "u"})},
				{"a token not valid yet", "Bearer " + sign(t, jwt.SigningMethodHS256, testSecret, jwt.RegisteredClaims{
					Subject: "u", ExpiresAt: jwt.NewNumericDate(time.Now().Add(time.Hour)), NotBefore: jwt.NewNumericDate(time.Now().Add(time.Minute))})},
			}
			for _, a := range attacks {
				t.Run(a.name+" is a 401 with a Bearer challenge", func(t *testing.T) {
					resp, body := withToken(t, r, a.header)
					wantProblem(t, resp, body, http.StatusUnauthorized)
					if h := resp.Header.Get("WWW-Authenticate"); !strings.HasPrefix(h, "Bearer") {
						t.Fatalf("WWW-Authenticate = %q", h)
					}
				})
			}
		})
	}
	t.Run("public routes need no token", func(t *testing.T) {
		r := authRouter(t, 0)
		resp, body := get(t, r, "/me/public")
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("status %d: %s", resp.StatusCode, body)
		}
	})
}

// TestCachedTokensStopWorkingWhenTheyExpire runs in a synctest bubble,
// whose clock is the one time.Now reads there: the token cache's clock and
// the JWT verifier's alike. Sleeping in the bubble moves that clock at once.
func TestCachedTokensStopWorkingWhenTheyExpire(t *testing.T) {
	t.Parallel()
	// fasthttp starts a goroutine refreshing its Date header, for good, on
	// the first response of the process: answer one outside the bubble, or
	// it would start inside, where no goroutine may outlive the test.
	get(t, authRouter(t, 0), "/me/public")
	synctest.Test(t, func(t *testing.T) {
		r := authRouter(t, 0)
		raw := sign(t, jwt.SigningMethodHS256, testSecret, claimsFor("u", "", time.Minute))
		for range 2 { // the second is served from the cache
			if resp, body := withToken(t, r, "Bearer "+raw); resp.StatusCode != http.StatusOK {
				t.Fatalf("fresh token: status %d %s", resp.StatusCode, body)
			}
		}
		// Past exp and the clock skew the verifier allows.
		time.Sleep(time.Minute + token.Leeway)
		resp, body := withToken(t, r, "Bearer "+raw)
		wantProblem(t, resp, body, http.StatusUnauthorized)
	})
}

func TestAuthRoutesNeedASecretAtStartUp(t *testing.T) {
	t.Parallel()
	_, err := router.New(router.Config{Controllers: []router.Controller{router.Group{Path: "/x", Declared: []router.Route{
		router.Get("/", func(c *router.Ctx, _ *struct{}) (*whoami, error) { return nil, nil }, router.Auth()),
	}}}})
	if err == nil || !strings.Contains(err.Error(), "GET /x") || !strings.Contains(err.Error(), "JWTSecret") {
		t.Fatalf("err = %v, want one naming the route and JWTSecret", err)
	}
}

func TestAuthIsCheckedBeforeInput(t *testing.T) {
	t.Parallel()
	r := newRouter(t, router.Config{JWTSecret: testSecret, Controllers: []router.Controller{router.Group{Path: "/s", Declared: []router.Route{
		router.Get("/", func(c *router.Ctx, in *struct {
			N int `query:"n" validate:"max=3"`
		}) (*whoami, error) {
			return &whoami{}, nil
		}, router.Auth()),
	}}}})
	for _, target := range []string{"/s?page=abc", "/s?n=x", "/s?n=9"} {
		resp, body := get(t, r, target)
		wantProblem(t, resp, body, http.StatusUnauthorized)
	}
}

func TestOneAuthorizationHeader(t *testing.T) {
	t.Parallel()
	r := authRouter(t, 0)
	good := "Bearer " + sign(t, jwt.SigningMethodHS256, testSecret, claimsFor("user-7", "", time.Hour))
	for _, fields := range [][]string{{good, "Bearer junk"}, {"Bearer junk", good}, {good, good}} {
		req := httptest.NewRequest(http.MethodGet, "/me", nil)
		req.Header["Authorization"] = fields
		resp, body := do(t, r, req)
		wantProblem(t, resp, body, http.StatusUnauthorized)
		if !strings.Contains(resp.Header.Get("WWW-Authenticate"), `error="invalid_request"`) {
			t.Errorf("two Authorization fields: WWW-Authenticate %q", resp.Header.Get("WWW-Authenticate"))
		}
	}
}
