package token

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Type is the typ header of an access token (RFC 9068, section 2.1): a
// token of another kind (an ID token, say) is refused even when its
// signature is good.
const Type = "at+jwt"

// Leeway is the clock skew allowed between the service and its clients'
// clocks, on exp, iat and the lifetime of a token.
const Leeway = 30 * time.Second

// Reasons Verify refuses a well-signed token.
var (
	errType     = errors.New("token: typ is not " + Type)
	errCrit     = errors.New("token: a crit header names an extension this service does not implement")
	errKID      = errors.New("token: no key with the kid")
	errAlg      = errors.New("token: the alg is not the key's")
	errClaims   = errors.New("token: sub, iat, jti or sid is missing")
	errLifetime = errors.New("token: lives longer than an access token may")
)

// Sign signs claims with the signing key: alg its algorithm, kid its id
// (when it has one), typ Type.
func (k *Keys) Sign(claims *Claims) (string, error) {
	key := k.Signing()
	method := jwt.GetSigningMethod(key.Alg)
	t := jwt.NewWithClaims(method, claims)
	t.Header["typ"] = Type
	if key.ID != "" {
		t.Header["kid"] = key.ID
	}
	s, err := t.SignedString(key.sign)
	if err != nil {
		return "", fmt.Errorf("token: sign: %w", err)
	}
	return s, nil
}

// Verify checks raw as RFC 8725 and RFC 9068 ask and returns its claims:
// signed by the key its kid names with that key's algorithm (none and any
// other refused), typ Type, no crit, exp and iat present and current
// (within Leeway), sub, jti and sid present, no longer a lifetime
// (exp - iat) than maxAge (0: any), and base64url in its one canonical
// spelling. Issuer, audience and revocation are the service's to check.
func (k *Keys) Verify(raw string, maxAge time.Duration) (*Claims, error) {
	claims := &Claims{}
	// Strict decoding: a token has one spelling, so that no one can make a
	// second string of a token that passes where the first was refused.
	p := jwt.NewParser(jwt.WithValidMethods(k.methods), jwt.WithExpirationRequired(), jwt.WithIssuedAt(), jwt.WithLeeway(Leeway), jwt.WithStrictDecoding())
	if _, err := p.ParseWithClaims(raw, claims, k.keyFor); err != nil {
		return nil, err
	}
	switch {
	case claims.Subject == "" || claims.IssuedAt == nil || claims.ID == "" || claims.SessionID == "":
		return nil, errClaims
	case maxAge > 0 && claims.ExpiresAt.Sub(claims.IssuedAt.Time) > maxAge+Leeway:
		return nil, errLifetime
	}
	return claims, nil
}

// keyFor finds the key that verifies t, checking its header first.
func (k *Keys) keyFor(t *jwt.Token) (any, error) {
	if typ, _ := t.Header["typ"].(string); !strings.EqualFold(typ, Type) && !strings.EqualFold(typ, "application/"+Type) {
		return nil, errType
	}
	if _, ok := t.Header["crit"]; ok {
		return nil, errCrit
	}
	kid, _ := t.Header["kid"].(string)
	key, ok := k.byID[kid]
	switch {
	case !ok:
		return nil, errKID
	case t.Method.Alg() != key.Alg:
		return nil, errAlg
	}
	return key.verify, nil
}
