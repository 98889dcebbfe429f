package router_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/asapjs/fiber-template/platform/router"
	"github.com/asapjs/fiber-template/platform/token"
)

// TestMetadataIsServedWhereOtherServicesLookForIt checks that an issuer's
// metadata and a resource server's are served, cacheable, at their
// well-known paths when configured, and that nothing is served there when
// they are not.
func TestMetadataIsServedWhereOtherServicesLookForIt(t *testing.T) {
	t.Parallel()
	issuer := &token.Metadata{Issuer: "https://accounts.example.com", JWKSURI: "https://accounts.example.com/.well-known/jwks.json"}
	resource := &token.ProtectedResource{Resource: "https://orders.example.com", AuthorizationServers: []string{issuer.Issuer}}
	cases := []struct {
		name string
		cfg  router.Config
		want map[string]string // path → the field that names who it is; no entry: a 404
	}{
		{"an issuer", router.Config{IssuerMetadata: issuer}, map[string]string{
			token.AuthServerMetadataPath:  issuer.Issuer,
			token.OpenIDConfigurationPath: issuer.Issuer,
		}},
		{"a resource server", router.Config{ProtectedResource: resource}, map[string]string{
			token.ProtectedResourcePath: resource.Resource,
		}},
		{"neither", router.Config{}, map[string]string{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newRouter(t, tc.cfg)
			for _, path := range []string{token.AuthServerMetadataPath, token.OpenIDConfigurationPath, token.ProtectedResourcePath} {
				resp, body := do(t, r, httptest.NewRequest(http.MethodGet, path, nil))
				want, served := tc.want[path]
				if !served {
					if resp.StatusCode != http.StatusNotFound {
						t.Errorf("GET %s: status %d, want 404 when not configured: %s", path, resp.StatusCode, body)
					}
					continue
				}
				var got struct {
					Issuer   string `json:"issuer"`
					Resource string `json:"resource"`
				}
				if resp.StatusCode != http.StatusOK || json.Unmarshal(body, &got) != nil || got.Issuer+got.Resource != want {
					t.Errorf("GET %s: status %d body %s, want 200 naming %s", path, resp.StatusCode, body, want)
				}
				if cc := resp.Header.Get("Cache-Control"); cc == "" {
					t.Errorf("GET %s: no Cache-Control: other services would fetch it on every token", path)
				}
			}
		})
	}
}
