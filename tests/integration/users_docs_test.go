package integration

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"golang.org/x/crypto/bcrypt"

	"github.com/asapjs/fiber-template/app"
	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/router"
)

// userSpec returns the spec the users service serves, checked by
// kin-openapi.
func userSpec(t *testing.T) (*openapi3.T, []byte) {
	t.Helper()
	ctx := context.Background()
	db, err := database.Open(ctx, inMemory)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	r, err := app.NewWithOptions(db, router.Config{BasePath: "/api", JWTSecret: userTestSecret}, app.Options{BcryptCost: bcrypt.MinCost})
	if err != nil {
		t.Fatal(err)
	}
	a := &userAPI{r: r, db: db, passwords: map[string]bool{}}
	res := a.send(t, req{method: http.MethodGet, path: "/api/docs/spec.json"})
	res.wantStatus(t, http.StatusOK)
	doc, err := openapi3.NewLoader().LoadFromData(res.body)
	if err != nil {
		t.Fatalf("load spec: %v", err)
	}
	if err := doc.Validate(ctx); err != nil {
		t.Fatalf("the spec is not valid OpenAPI: %v", err)
	}
	return doc, res.body
}

func TestUsersSpec(t *testing.T) {
	t.Parallel()
	doc, raw := userSpec(t)

	// security is "public" (security: []), "optional" (anonymous or a
	// bearer token) or "bearer".
	operations := []struct {
		id, method, path string
		security         string
		statuses         []string
	}{
		{"login", http.MethodPost, "/api/auth/login", "public", []string{"200", "400", "401", "408", "413", "415", "422", "429", "431", "500", "503"}},
		// No 429: this service runs without the auth rate limit, the sign-up's
		// only 429 (the contract, made with the default limit, lists it).
		{"createUser", http.MethodPost, "/api/users", "optional", []string{"201", "400", "401", "403", "408", "409", "413", "415", "422", "431", "500", "503"}},
		{"listUsers", http.MethodGet, "/api/users", "bearer", []string{"200", "304", "400", "401", "403", "408", "422", "431", "500", "503"}},
		{"getUser", http.MethodGet, "/api/users/{id}", "bearer", []string{"200", "304", "400", "401", "403", "404", "408", "431", "500", "503"}},
		{"updateUser", http.MethodPut, "/api/users/{id}", "bearer", []string{"200", "400", "401", "403", "404", "408", "409", "412", "413", "415", "422", "429", "431", "500", "503"}},
		{"deleteUser", http.MethodDelete, "/api/users/{id}", "bearer", []string{"204", "400", "401", "403", "404", "408", "409", "412", "431", "500", "503"}},
	}
	for _, tt := range operations {
		t.Run(tt.id+" is documented with its title, description, errors and security", func(t *testing.T) {
			t.Parallel()
			item := doc.Paths.Find(tt.path)
			if item == nil {
				t.Fatalf("no path %s", tt.path)
			}
			op := item.GetOperation(tt.method)
			if op == nil || op.OperationID != tt.id {
				t.Fatalf("%s %s is not operation %s", tt.method, tt.path, tt.id)
			}
			if op.Summary == "" || op.Description == "" {
				t.Errorf("summary %q, description %q: want both", op.Summary, op.Description)
			}
			var statuses []string
			for code := range op.Responses.Map() {
				statuses = append(statuses, code)
			}
			slices.Sort(statuses)
			if !slices.Equal(statuses, tt.statuses) {
				t.Errorf("responses %v, want %v", statuses, tt.statuses)
			}
			security := "bearer"
			switch {
			case op.Security != nil && len(*op.Security) == 0:
				security = "public"
			case op.Security != nil && slices.ContainsFunc(*op.Security, func(r openapi3.SecurityRequirement) bool { return len(r) == 0 }):
				security = "optional"
			}
			if security != tt.security {
				t.Errorf("security %v is %s, want %s", op.Security, security, tt.security)
			}
		})
	}

	t.Run("the login takes the form of the OAuth2 password grant and JSON", func(t *testing.T) {
		t.Parallel()
		body := doc.Paths.Find("/api/auth/login").Post.RequestBody.Value
		for _, mt := range []string{"application/x-www-form-urlencoded", "application/json"} {
			content := body.Content.Get(mt)
			if content == nil {
				t.Errorf("no %s body", mt)
				continue
			}
			s := content.Schema.Value
			for _, prop := range []string{"grant_type", "username", "password"} {
				if s.Properties[prop] == nil {
					t.Errorf("%s body has no %s", mt, prop)
				}
			}
			if !slices.Contains(s.Required, "username") || !slices.Contains(s.Required, "password") {
				t.Errorf("%s body requires %v, want username and password", mt, s.Required)
			}
			if p := s.Properties["password"]; p != nil && p.Value.Format != "password" {
				t.Errorf("%s password has format %q, want password", mt, p.Value.Format)
			}
		}
		flow := doc.Components.SecuritySchemes["OAuthLogin"].Value.Flows.Password
		if flow == nil || flow.TokenURL != "/api/auth/login" {
			t.Errorf("OAuthLogin password flow %+v, want tokenUrl /api/auth/login", flow)
		}
	})

	t.Run("passwords are documented as such and no response carries one", func(t *testing.T) {
		t.Parallel()
		if p := doc.Components.Schemas["CreateUserRequest"].Value.Properties["password"]; p == nil || p.Value.Format != "password" {
			t.Errorf("CreateUserRequest.password is not format password")
		}
		user := doc.Components.Schemas["User"].Value
		var props []string
		for name := range user.Properties {
			props = append(props, name)
		}
		slices.Sort(props)
		if !slices.Equal(props, userKeys) {
			t.Errorf("User has properties %v, want %v", props, userKeys)
		}
		if strings.Contains(string(raw), "password_hash") {
			t.Error("the spec mentions password_hash")
		}
	})

	t.Run("listUsers documents paging and every filter", func(t *testing.T) {
		t.Parallel()
		op := doc.Paths.Find("/api/users").Get
		var names []string
		for _, p := range op.Parameters {
			names = append(names, p.Value.Name)
		}
		if !slices.Equal(names, []string{"page", "limit", "cursor", "role", "q", "active", "sort", "If-None-Match"}) {
			t.Errorf("parameters %v, want page, limit, cursor, role, q, active, sort, If-None-Match", names)
		}
		sort := op.Parameters.GetByInAndName("query", "sort")
		if sort == nil || sort.Style != "form" || sort.Explode == nil || *sort.Explode ||
			fmt.Sprint(sort.Schema.Value.Items.Value.Enum) != "[created_at -created_at name -name email -email]" {
			t.Errorf("sort is not a comma-separated array of the declared keys either way: %+v", sort)
		}
		role := op.Parameters.GetByInAndName("query", "role")
		if role == nil || len(role.Schema.Value.Enum) != 3 {
			t.Errorf("role is not documented as the enum of the three roles")
		}
	})
}
