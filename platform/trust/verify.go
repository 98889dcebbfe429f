package trust

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/golang-jwt/jwt/v5"

	"github.com/asapjs/fiber-template/platform/token"
)

// Verifier verifies the access tokens of one issuer; see New.
type Verifier struct {
	cfg        Config
	keys       *remoteKeys
	introspect *introspector
	// Metadata is the issuer's metadata when it was discovered, nil
	// when Config.JWKSURL was given.
	Metadata *token.Metadata
	// MetadataURL is where Metadata was found.
	MetadataURL string
}

// algorithms are the asymmetric algorithms a token may be signed with;
// each key verifies one of them only (see algOf). HS* and none never.
var algorithms = []string{"EdDSA", "ES256", "ES384", "ES512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512"}

// New returns the Verifier of cfg.Issuer's tokens. Without cfg.JWKSURL it
// discovers the issuer's metadata first, and fails when it cannot; the
// keys are fetched now, and a failure there only logged, since they are
// fetched again when a token needs them.
func New(ctx context.Context, cfg Config) (*Verifier, error) {
	cfg = configDefault(cfg)
	issuer, err := token.IssuerURL(cfg.Issuer)
	if err != nil {
		return nil, fmt.Errorf("trust: issuer %q: %w", cfg.Issuer, err)
	}
	cfg.Issuer = issuer
	if len(cfg.Audiences) == 0 {
		return nil, errors.New("trust: no audience: a token for any other service would pass")
	}
	v := &Verifier{cfg: cfg}
	jwksURL := cfg.JWKSURL
	if jwksURL == "" {
		if v.Metadata, v.MetadataURL, err = Discover(ctx, cfg); err != nil {
			return nil, err
		}
		jwksURL = v.Metadata.JWKSURI
	}
	v.keys = &remoteKeys{url: jwksURL, client: cfg.Client, minRefresh: cfg.MinRefresh, now: cfg.Now, logger: cfg.Logger}
	v.keys.refresh(ctx, false)
	if cfg.Introspection.URL != "" {
		v.introspect = newIntrospector(cfg)
	}
	return v, nil
}

// Issuer is the iss the tokens must carry.
func (v *Verifier) Issuer() string { return v.cfg.Issuer }

// Reasons VerifyToken refuses a token.
var (
	errType     = errors.New("trust: typ is not an access token's")
	errCrit     = errors.New("trust: a crit header names an extension this service does not implement")
	errAlg      = errors.New("trust: the alg is not the key's")
	errSubject  = errors.New("trust: no sub")
	errAudience = errors.New("trust: no accepted aud")
	errInactive = errors.New("trust: the issuer says the token is not active")
)

// VerifyToken checks raw as RFC 8725 asks: signed by the issuer's key its
// kid names (a token without a kid only when the set has one key), with
// that key's one algorithm; no crit; typ at+jwt, JWT or none; iss the
// issuer exactly; one of the audiences; exp present and current, and iat,
// nbf not in the future, each within token.Leeway; a sub; and, with
// introspection, active at the issuer. Headers that name where keys are
// (jku, x5u, jwk, x5c) are never followed: only the configured keys count.
func (v *Verifier) VerifyToken(ctx context.Context, raw string) (*token.Claims, error) {
	mc := jwt.MapClaims{}
	p := jwt.NewParser(jwt.WithValidMethods(algorithms), jwt.WithExpirationRequired(), jwt.WithIssuedAt(),
		jwt.WithLeeway(token.Leeway), jwt.WithIssuer(v.cfg.Issuer), jwt.WithAudience(v.cfg.Audiences...),
		jwt.WithTimeFunc(v.cfg.Now), jwt.WithStrictDecoding())
	if _, err := p.ParseWithClaims(raw, mc, func(t *jwt.Token) (any, error) { return v.keyFor(ctx, t) }); err != nil {
		return nil, err
	}
	claims, err := v.claims(mc)
	if err != nil {
		return nil, err
	}
	if v.introspect != nil && !v.introspect.active(ctx, raw) {
		return nil, errInactive
	}
	return claims, nil
}

// keyFor checks t's header and returns the key that verifies it.
func (v *Verifier) keyFor(ctx context.Context, t *jwt.Token) (any, error) {
	if typ, ok := t.Header["typ"]; ok {
		s, _ := typ.(string)
		s = strings.TrimPrefix(strings.ToLower(s), "application/")
		if s != token.Type && s != "jwt" {
			return nil, errType
		}
	}
	if _, ok := t.Header["crit"]; ok {
		return nil, errCrit
	}
	kid, _ := t.Header["kid"].(string)
	k, err := v.keys.lookup(ctx, kid)
	if err != nil {
		return nil, err
	}
	if t.Method.Alg() != k.alg {
		return nil, errAlg
	}
	return k.pub, nil
}

// claims maps the issuer's claims onto token.Claims: the registered
// ones, the roles of the roles claim (Role the first), scope and sid.
func (v *Verifier) claims(mc jwt.MapClaims) (*token.Claims, error) {
	c := &token.Claims{}
	var err error
	if c.Subject, err = mc.GetSubject(); err != nil || c.Subject == "" {
		return nil, errSubject
	}
	c.Issuer, _ = mc.GetIssuer()
	if c.Audience, err = mc.GetAudience(); err != nil || !slices.ContainsFunc(c.Audience, func(a string) bool { return slices.Contains(v.cfg.Audiences, a) }) {
		return nil, errAudience
	}
	c.ExpiresAt, _ = mc.GetExpirationTime()
	c.IssuedAt, _ = mc.GetIssuedAt()
	c.NotBefore, _ = mc.GetNotBefore()
	c.ID, _ = mc["jti"].(string)
	c.SessionID, _ = mc["sid"].(string)
	c.Scope, _ = mc["scope"].(string)
	c.Roles = rolesAt(mc, v.cfg.RolesClaim)
	if len(c.Roles) > 0 {
		c.Role = c.Roles[0]
	}
	return c, nil
}

// rolesAt reads the roles of the claim named path, or else at path as a
// dotted path into nested claims: a list of strings, or a string of
// space-separated ones. Anything else is no role.
func rolesAt(mc jwt.MapClaims, path string) []string {
	// A claim named with dots (Auth0's https://example.com/roles) is
	// itself, before it is a path.
	at, ok := mc[path]
	if !ok {
		at = map[string]any(mc)
		for name := range strings.SplitSeq(path, ".") {
			obj, ok := at.(map[string]any)
			if !ok {
				return nil
			}
			at = obj[name]
		}
	}
	switch val := at.(type) {
	case string:
		return strings.Fields(val)
	case []any:
		roles := make([]string, 0, len(val))
		for _, r := range val {
			if s, ok := r.(string); ok && s != "" {
				roles = append(roles, s)
			}
		}
		return roles
	}
	return nil
}
