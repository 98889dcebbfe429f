package servicetest

import (
	"testing"

	"github.com/golang-jwt/jwt/v5"

	"github.com/asapjs/fiber-template/platform/token"
)

// SignJWT signs claims with method and key as an access token (typ
// at+jwt), with the header fields set, or removed where nil: a token a test
// forges as a client that holds the key could.
func SignJWT(t testing.TB, method jwt.SigningMethod, key any, claims jwt.Claims, header map[string]any) string {
	t.Helper()
	tok := jwt.NewWithClaims(method, claims)
	tok.Header["typ"] = token.Type
	for k, v := range header {
		if v == nil {
			delete(tok.Header, k)
		} else {
			tok.Header[k] = v
		}
	}
	s, err := tok.SignedString(key)
	if err != nil {
		t.Fatalf("servicetest: sign a token: %v", err)
	}
	return s
}
