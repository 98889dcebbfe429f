package router_test

import (
	"fmt"
	"io"
	"net/http/httptest"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/asapjs/fiber-template/platform/router"
	"github.com/asapjs/fiber-template/platform/token"
)

// caller is who called a route, as its token says.
type caller struct {
	Subject string `json:"subject"`
	Role    string `json:"role"`
}

// A route declared with Roles("admin") takes a bearer token signed with
// the router's JWTSecret whose role is admin: no token is a 401, a
// member's token a 403, an admin's reaches the handler, which reads the
// caller from the verified claims.
func ExampleRoles() {
	secret := []byte("example-secret-0123456789abcdef01")
	r, err := router.New(router.Config{
		JWTSecret: secret,
		Controllers: []router.Controller{router.Group{Path: "/reports", Declared: []router.Route{
			router.Get("/", func(c *router.Ctx, _ *struct{}) (*caller, error) {
				id, role, _ := c.Caller()
				return &caller{Subject: id, Role: role}, nil
			}, router.Roles("admin")),
		}}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	// The claims the router requires: sub, jti, iat, exp and sid, with the
	// role. A service signs them as its sessions do, with token.Keys.
	keys, err := token.NewSecret(secret)
	if err != nil {
		fmt.Println(err)
		return
	}
	bearer := func(sub, role string) string {
		now := time.Now()
		signed, _ := keys.Sign(&token.Claims{
			RegisteredClaims: jwt.RegisteredClaims{Subject: sub, ID: "token-" + sub,
				IssuedAt: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(now.Add(time.Minute))},
			Role: role, SessionID: "session-" + sub,
		})
		return "Bearer " + signed
	}
	for _, auth := range []string{"", bearer("7", "member"), bearer("1", "admin")} {
		req := httptest.NewRequest("GET", "/reports", nil)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, _ := r.App().Test(req, -1)
		body, _ := io.ReadAll(resp.Body)
		fmt.Println(resp.StatusCode, string(body))
	}
	// Output:
	// 401 {"type":"urn:problem-type:unauthorized","title":"Unauthorized","status":401,"detail":"A bearer token is required.","code":"unauthorized"}
	// 403 {"type":"urn:problem-type:forbidden","title":"Forbidden","status":403,"detail":"This operation requires the role admin.","code":"forbidden"}
	// 200 {"subject":"1","role":"admin"}
}
