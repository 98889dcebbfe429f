package router_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/asapjs/fiber-template/platform/router"
)

// adminOnly is a route only admins may call, with a rule on its input that
// a forbidden caller must never get to see.
type adminOnlyInput struct {
	N int `query:"n" validate:"lte=3"`
}

func rolesRouter(t *testing.T) *router.Router {
	return newRouter(t, router.Config{
		JWTSecret: testSecret,
		Controllers: []router.Controller{router.Group{Path: "/admin", Declared: []router.Route{
			router.Get("/", func(c *router.Ctx, _ *adminOnlyInput) (*whoami, error) {
				id, role, ok := c.Caller()
				if !ok || role != "admin" {
					t.Errorf("Caller() = %q, %q, %v inside an admin route", id, role, ok)
				}
				return &whoami{Subject: id}, nil
			}, router.Roles("admin"), router.OperationID("adminOnly")),
			router.Get("/anyone", func(c *router.Ctx, _ *struct{}) (*whoami, error) {
				id, _, _ := c.Caller()
				return &whoami{Subject: id}, nil
			}, router.Auth()),
		}}},
	})
}

func roleToken(t *testing.T, role string) string {
	t.Helper()
	return "Bearer " + sign(t, jwt.SigningMethodHS256, testSecret, claimsFor("7", role, time.Minute))
}

func TestRolesAreEnforcedBeforeTheInput(t *testing.T) {
	t.Parallel()
	r := rolesRouter(t)
	// Every answer to a caller whose token was verified is for that caller
	// alone (Cache-Control: no-store), the 403 included.
	cases := []struct {
		name    string
		auth    string
		query   string
		status  int
		noStore bool
	}{
		{"an admin passes", roleToken(t, "admin"), "?n=1", http.StatusOK, true},
		{"an admin still meets the input rules", roleToken(t, "admin"), "?n=9", http.StatusUnprocessableEntity, true},
		{"a member is forbidden, whatever the input", roleToken(t, "member"), "?n=9", http.StatusForbidden, true},
		{"a token without a role is forbidden", roleToken(t, ""), "", http.StatusForbidden, true},
		{"no token is unauthorized", "", "", http.StatusUnauthorized, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodGet, "/admin"+tc.query, nil)
			if tc.auth != "" {
				req.Header.Set("Authorization", tc.auth)
			}
			resp, body := do(t, r, req)
			if got := resp.Header.Get("Cache-Control"); (got == "no-store") != tc.noStore {
				t.Errorf("Cache-Control %q, want no-store: %v", got, tc.noStore)
			}
			if tc.status == http.StatusOK {
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("status %d: %s", resp.StatusCode, body)
				}
				return
			}
			p := wantProblem(t, resp, body, tc.status)
			if tc.status == http.StatusForbidden && (p.Code != "forbidden" || !strings.Contains(p.Detail, "admin")) {
				t.Errorf("problem %+v, want the forbidden code naming the role", p)
			}
		})
	}
}

func TestRolesAreDocumented(t *testing.T) {
	t.Parallel()
	doc, err := rolesRouter(t).Spec().Document()
	if err != nil {
		t.Fatal(err)
	}
	op := doc.Paths["/admin"].Get
	if op.Responses["403"] == nil || op.Responses["401"] == nil {
		t.Errorf("responses %v, want 401 and 403", op.Responses)
	}
	// A route any signed-in caller may call cannot answer 403.
	if plain := doc.Paths["/admin/anyone"].Get; plain.Responses["401"] == nil || plain.Responses["403"] != nil {
		t.Errorf("responses of a route without roles %v, want a 401 and no 403", plain.Responses)
	}
	if op.Security == nil || len(*op.Security) == 0 || !slices.Equal((*op.Security)[0]["OAuthLogin"], []string{"admin"}) {
		t.Errorf("security %v, want the admin scope of OAuthLogin", op.Security)
	}
	if !strings.Contains(op.Description, "admin") {
		t.Errorf("description %q does not name the role", op.Description)
	}
	flow := doc.Components.SecuritySchemes["OAuthLogin"]
	if flow == nil || flow.Flows.Password.Scopes["admin"] == "" {
		t.Errorf("the OAuthLogin flow does not list the admin scope: %+v", flow)
	}
}
