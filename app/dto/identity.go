package dto

import (
	"github.com/asapjs/fiber-template/platform/token"
)

// Identity is what the service believes about the caller: the verified
// claims of its access token, whichever issuer signed it.
type Identity struct {
	// Subject is the caller's id at the issuer.
	Subject string `json:"sub" doc:"The caller's id at the issuer (the token's sub): what owner checks compare" example:"42" validate:"required"`
	// Roles are the caller's roles, as the role checks of the routes see
	// them.
	Roles []string `json:"roles" doc:"The caller's roles, as the routes' role checks read them: the role claim here, or AUTH_ROLES_CLAIM of the trusted issuer's tokens" example:"[\"admin\"]" validate:"required"`
	// Issuer is the token's iss.
	Issuer string `json:"iss" doc:"The issuer of the token" example:"https://accounts.example.com" validate:"required"`
	// Audience is the token's aud.
	Audience []string `json:"aud" doc:"The audiences of the token" example:"[\"fiber-template-api\"]" validate:"required"`
	// ExpiresAt is the token's exp, in seconds since the epoch.
	ExpiresAt int64 `json:"exp" doc:"When the token expires, in seconds since 1970" example:"1714567800" validate:"required"`
	// Scope is the token's scope, when it has one.
	Scope string `json:"scope,omitempty" doc:"The token's scope, space-separated, when it has one" example:"openid profile"`
}

// IdentityOf is the identity of verified claims.
func IdentityOf(c *token.Claims) Identity {
	roles := c.Roles
	if len(roles) == 0 && c.Role != "" {
		roles = []string{c.Role}
	}
	id := Identity{Subject: c.Subject, Roles: append([]string{}, roles...), Issuer: c.Issuer, Audience: append([]string{}, c.Audience...), Scope: c.Scope}
	if c.ExpiresAt != nil {
		id.ExpiresAt = c.ExpiresAt.Unix()
	}
	return id
}
