// Package token holds the claims of the service's access tokens, shared by
// what issues them (a service's sessions) and what verifies them (the
// router), so that neither has to import the other.
package token

import (
	"errors"

	"github.com/golang-jwt/jwt/v5"
)

// Claims are the claims of an access token: the registered ones (sub, iss,
// aud, exp, iat), the caller's role and the session the token belongs to.
type Claims struct {
	jwt.RegisteredClaims
	// Role is the caller's role, which route role requirements check.
	Role string `json:"role,omitempty"`
	// SessionID names the login session the token belongs to.
	SessionID string `json:"sid,omitempty"`
}

// Validate makes exp mandatory; the parser already rejects a past exp.
func (c *Claims) Validate() error {
	if c.ExpiresAt == nil {
		return errors.New("token has no exp claim")
	}
	return nil
}
