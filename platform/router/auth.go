package router

import (
	"context"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/basicauth"
	"github.com/asapjs/fiber-template/platform/problem"
	"github.com/asapjs/fiber-template/platform/token"
)

// Claims are the claims of a verified access token (package token), which
// handlers read with Ctx.Claims.
type Claims = token.Claims

// TokenChecker checks what a valid signature cannot tell: the issuer and
// audience a service expects, and whether the session behind a token was
// revoked. It runs on every request that presents a token, from the cache
// of verified tokens or not, so a revocation takes effect on the next
// request; it must be cheap (a map look-up, no database call).
type TokenChecker interface {
	// CheckToken returns an error when the verified claims must be refused.
	CheckToken(claims *Claims) error
}

// The router's names for the platform's 401 and 403.
var (
	errUnauthorized = problem.ErrUnauthorized
	errForbidden    = problem.ErrForbidden
)

// TokenVerifier verifies a bearer token on its own: signature, issuer,
// audience and whatever else the service requires (a resource server's
// verifier of another issuer's tokens, see Config.TokenVerifier).
type TokenVerifier interface {
	// VerifyToken returns the claims of raw, or an error when raw must be
	// refused (a 401).
	VerifyToken(ctx context.Context, raw string) (*Claims, error)
}

// authenticate returns the claims of the request's bearer token, from the
// cache of verified tokens when it is there and still unexpired.
func (r *Router) authenticate(fc *fiber.Ctx) (*Claims, error) {
	if len(fc.Request().Header.PeekAll(fiber.HeaderAuthorization)) > 1 {
		// Which one a proxy in front read is not this server's to guess.
		fc.Set(fiber.HeaderWWWAuthenticate, r.challenge("invalid_request"))
		return nil, errUnauthorized.WithDetail("A request may carry one Authorization header.")
	}
	raw := bearerToken(fc.Request().Header.Peek(fiber.HeaderAuthorization))
	if raw == nil {
		fc.Set(fiber.HeaderWWWAuthenticate, r.challenge(""))
		return nil, errUnauthorized.WithDetail("A bearer token is required.")
	}
	if v := r.cfg.TokenVerifier; v != nil {
		claims, err := v.VerifyToken(fc.UserContext(), string(raw))
		if err != nil {
			fc.Set(fiber.HeaderWWWAuthenticate, r.challenge("invalid_token"))
			return nil, errUnauthorized.WithDetail("The bearer token is invalid, expired or revoked.")
		}
		return claims, nil
	}
	if claims := r.tokens.get(raw); claims != nil {
		return r.checkToken(fc, claims)
	}
	claims, err := r.keys.Verify(string(raw), r.cfg.TokenMaxAge)
	if err != nil {
		fc.Set(fiber.HeaderWWWAuthenticate, r.challenge("invalid_token"))
		return nil, errUnauthorized.WithDetail("The bearer token is invalid or expired.")
	}
	r.tokens.put(string(raw), claims)
	return r.checkToken(fc, claims)
}

// challenge is the Bearer challenge of an answer 401 (RFC 6750, section
// 3): the realm, the RFC 9728 resource metadata when the service serves
// it, and the error code when the request sent a token.
func (r *Router) challenge(code string) string {
	var b strings.Builder
	b.WriteString(`Bearer realm=`)
	b.WriteString(strconv.Quote(r.cfg.Realm))
	if pr := r.cfg.ProtectedResource; pr != nil {
		b.WriteString(`, resource_metadata=`)
		b.WriteString(strconv.Quote(pr.Resource + token.ProtectedResourcePath))
	}
	if code != "" {
		b.WriteString(`, error="`)
		b.WriteString(code)
		b.WriteString(`"`)
	}
	return b.String()
}

// authenticateClient lets the request through with the HTTP Basic
// credentials of one of clients in its one Authorization header.
func authenticateClient(fc *fiber.Ctx, clients Clients) error {
	if h := fc.Request().Header.PeekAll(fiber.HeaderAuthorization); len(h) == 1 {
		if id, secret, ok := basicauth.Parse(string(h[0])); ok && clients.Allow(id, secret) {
			return nil
		}
	}
	fc.Set(fiber.HeaderWWWAuthenticate, basicauth.Challenge("api"))
	return errUnauthorized.WithDetail("The HTTP Basic credentials of a client (another service) are required.")
}

// checkToken runs Config.TokenChecker on verified claims.
func (r *Router) checkToken(fc *fiber.Ctx, claims *Claims) (*Claims, error) {
	if r.cfg.TokenChecker == nil {
		return claims, nil
	}
	if err := r.cfg.TokenChecker.CheckToken(claims); err != nil {
		fc.Set(fiber.HeaderWWWAuthenticate, r.challenge("invalid_token"))
		return nil, errUnauthorized.WithDetail("The bearer token is invalid, expired or revoked.")
	}
	return claims, nil
}

// bearerToken returns the token of an "Authorization: Bearer <token>"
// header, nil when there is none.
func bearerToken(h []byte) []byte {
	const prefix = "bearer "
	if len(h) <= len(prefix) {
		return nil
	}
	for i := range len(prefix) {
		c := h[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[i] {
			return nil
		}
	}
	return h[len(prefix):]
}
