package main

import (
	"strings"
	"testing"
	"time"
)

// TestLoadFleet reads PUBLIC_URL and the AUTH_* settings: a resource server
// of an issuer, with its defaults, and a clear refusal of what cannot
// work.
func TestLoadFleet(t *testing.T) {
	t.Parallel()
	const secrets = "PAGING_CURSOR_SECRET=a-production-cursor-secret-of-32-bytes IDEMPOTENCY_SECRET=a-production-idempotency-secret-of-32-bytes"
	for _, tc := range []struct {
		name, env string
		// err is the start of the error wanted; check looks at the rest.
		err   string
		check func(t *testing.T, f fleet)
	}{
		{name: "nothing set", env: "JWT_SECRET=a-test-secret", check: func(t *testing.T, f fleet) {
			if f.PublicURL != "" || f.Trust.Issuer != "" || f.resourceOnly() {
				t.Errorf("%+v", f)
			}
		}},
		{name: "a resource server with the defaults", env: "AUTH_ISSUER=https://accounts.example.com/", check: func(t *testing.T, f fleet) {
			tr := f.Trust
			// The iss is compared letter for letter: a trailing slash stays.
			if tr.Issuer != "https://accounts.example.com/" || strings.Join(tr.Audiences, ",") != "fiber-template-api" || tr.RolesClaim != "role" ||
				tr.MinRefresh != time.Minute || tr.Introspection.URL != "" || !f.resourceOnly() {
				t.Errorf("%+v", f)
			}
		}},
		{name: "every setting", env: "AUTH_ISSUER=https://sso.example.com/realms/acme AUTH_JWKS_URL=https://sso.example.com/certs AUTH_AUDIENCE=orders,account " +
			"AUTH_ROLES_CLAIM=realm_access.roles AUTH_JWKS_MIN_REFRESH=5s AUTH_INTROSPECTION_URL=https://sso.example.com/introspect AUTH_INTROSPECTION_CLIENT_ID=orders " +
			"AUTH_INTROSPECTION_CLIENT_SECRET=s AUTH_INTROSPECTION_CACHE=2s AUTH_INTROSPECTION_FAILURE=open AUTH_KEEP_ACCOUNTS=true JWT_SECRET=a-test-secret",
			check: func(t *testing.T, f fleet) {
				tr := f.Trust
				if tr.JWKSURL != "https://sso.example.com/certs" || strings.Join(tr.Audiences, ",") != "orders,account" || tr.RolesClaim != "realm_access.roles" ||
					tr.MinRefresh != 5*time.Second || tr.Introspection.Cache != 2*time.Second || !tr.Introspection.FailOpen || tr.Introspection.ClientID != "orders" ||
					!f.KeepAccounts || f.resourceOnly() {
					t.Errorf("%+v", f)
				}
			}},
		{name: "production: a resource server signs nothing, so needs no keys", env: "APP_ENV=production AUTH_ISSUER=https://accounts.example.com " + secrets,
			check: func(t *testing.T, f fleet) {
				if !f.resourceOnly() {
					t.Errorf("%+v", f)
				}
			}},
		{name: "production: a resource server still needs the stable secrets", env: "APP_ENV=production AUTH_ISSUER=https://accounts.example.com", err: "PAGING_CURSOR_SECRET and IDEMPOTENCY_SECRET are required"},
		{name: "production: keeping the accounts needs keys", env: "APP_ENV=production AUTH_ISSUER=https://accounts.example.com AUTH_KEEP_ACCOUNTS=true " + secrets, err: "JWT_SIGNING_KEYS"},
		{name: "production takes https", env: "APP_ENV=production JWT_SECRET=a-production-jwt-secret-of-32-bytes! AUTH_ISSUER=http://accounts.example.com", err: "AUTH_ISSUER"},
		{name: "production takes http on loopback", env: "APP_ENV=production JWT_SECRET=a-production-jwt-secret-of-32-bytes! PUBLIC_URL=http://127.0.0.1:8080"},
		{name: "PUBLIC_URL is kept without a trailing slash", env: "JWT_SECRET=a-test-secret PUBLIC_URL=https://a.example.com/", check: func(t *testing.T, f fleet) {
			if f.PublicURL != "https://a.example.com" {
				t.Errorf("PublicURL %q", f.PublicURL)
			}
		}},
		{name: "a PUBLIC_URL that is no URL", env: "JWT_SECRET=a-test-secret PUBLIC_URL=accounts.example.com", err: "PUBLIC_URL"},
		{name: "a PUBLIC_URL with a query", env: "JWT_SECRET=a-test-secret PUBLIC_URL=https://a.example.com/?x=1", err: "PUBLIC_URL"},
		{name: "a JWKS URL without an issuer", env: "JWT_SECRET=a-test-secret AUTH_JWKS_URL=https://a.example.com/keys", err: "AUTH_JWKS_URL and AUTH_INTROSPECTION_URL need AUTH_ISSUER"},
		{name: "introspection without credentials", env: "JWT_SECRET=a-test-secret AUTH_ISSUER=https://a.example.com AUTH_INTROSPECTION_URL=https://a.example.com/i", err: "AUTH_INTROSPECTION_URL needs"},
		{name: "a failure mode of neither kind", env: "JWT_SECRET=a-test-secret AUTH_ISSUER=https://a.example.com AUTH_INTROSPECTION_URL=https://a.example.com/i " +
			"AUTH_INTROSPECTION_CLIENT_ID=a AUTH_INTROSPECTION_CLIENT_SECRET=b AUTH_INTROSPECTION_FAILURE=maybe", err: "AUTH_INTROSPECTION_FAILURE"},
		{name: "a min refresh that is no duration", env: "JWT_SECRET=a-test-secret AUTH_ISSUER=https://a.example.com AUTH_JWKS_MIN_REFRESH=soon", err: "AUTH_JWKS_MIN_REFRESH"},
		{name: "an empty audience list", env: "JWT_SECRET=a-test-secret AUTH_ISSUER=https://a.example.com AUTH_AUDIENCE=,", err: "AUTH_AUDIENCE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			pairs := map[string]string{}
			for _, kv := range strings.Fields(tc.env) {
				k, v, _ := strings.Cut(kv, "=")
				pairs[k] = v
			}
			cfg, err := loadConfig(env(pairs))
			switch {
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("error %v, want one naming %q", err, tc.err)
			case tc.err == "" && err != nil:
				t.Fatal(err)
			case tc.check != nil:
				tc.check(t, cfg.Fleet)
			}
		})
	}
}
