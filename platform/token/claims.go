// Package token holds the claims of the service's access tokens, shared by
// what issues them (a service's sessions) and what verifies them (the
// router), so that neither has to import the other.
package token

import (
	"errors"
	"slices"

	"github.com/golang-jwt/jwt/v5"
)

// Claims are the claims of an access token: the registered ones (sub, iss,
// aud, exp, iat), the caller's role and the session the token belongs to.
type Claims struct {
	// RegisteredClaims are the token's registered claims (RFC 7519,
	// section 4.1).
	jwt.RegisteredClaims
	// Role is the caller's role, which route role requirements check.
	Role string `json:"role,omitempty"`
	// SessionID names the login session the token belongs to.
	SessionID string `json:"sid,omitempty"`
	// Scope is the token's scope claim, space-separated, when it has one.
	Scope string `json:"scope,omitempty"`
	// Roles are the caller's roles read from another issuer's claim (a
	// resource server's roles claim, such as Keycloak's
	// realm_access.roles); Role is then the first of them. Never signed
	// or read as a claim of its own.
	Roles []string `json:"-"`
}

// HasRole reports whether the caller has one of roles: its Role or one of
// its Roles.
func (c *Claims) HasRole(roles ...string) bool {
	for _, r := range roles {
		if r == c.Role || slices.Contains(c.Roles, r) {
			return true
		}
	}
	return false
}

// Validate makes exp mandatory; the parser already rejects a past exp.
func (c *Claims) Validate() error {
	if c.ExpiresAt == nil {
		return errors.New("token has no exp claim")
	}
	return nil
}
