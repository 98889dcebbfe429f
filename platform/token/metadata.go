package token

import (
	"errors"
	"net/url"
)

// Metadata is an authorization server's metadata (RFC 8414), as an issuer
// serves it at /.well-known/oauth-authorization-server and
// /.well-known/openid-configuration and as a resource server discovers its
// issuer's keys and endpoints through it. Only the members this template
// serves or reads are here.
type Metadata struct {
	// Issuer is the issuer identifier (issuer): the iss of its tokens and the
	// URL its metadata is found under.
	Issuer string `json:"issuer" doc:"The issuer: the iss claim of its access tokens, an https (or, in development, http) URL" example:"https://accounts.example.com" validate:"required"`
	// JWKSURI is the URL of the issuer's JWK Set (jwks_uri), the public keys its
	// tokens verify with.
	JWKSURI string `json:"jwks_uri" doc:"The JWK Set the access tokens verify with" example:"https://accounts.example.com/.well-known/jwks.json" validate:"required"`
	// AuthorizationEndpoint is where a browser logs in (authorization_endpoint);
	// empty without a browser flow.
	AuthorizationEndpoint string `json:"authorization_endpoint,omitempty" doc:"Where a browser logs in (authorization code flow); none for an issuer of password grants only" example:"https://accounts.example.com/authorize"`
	// TokenEndpoint is where a client exchanges a grant for tokens
	// (token_endpoint).
	TokenEndpoint string `json:"token_endpoint,omitempty" doc:"Where a client exchanges a grant for tokens" example:"https://accounts.example.com/api/auth/login"`
	// IntrospectionEndpoint is where a client asks whether a token is active
	// (introspection_endpoint, RFC 7662).
	IntrospectionEndpoint string `json:"introspection_endpoint,omitempty" doc:"Token introspection (RFC 7662) for the issuer's clients; present when clients are configured" example:"https://accounts.example.com/api/auth/introspect"`
	// RevocationEndpoint is where a client revokes a token (revocation_endpoint,
	// RFC 7009).
	RevocationEndpoint string `json:"revocation_endpoint,omitempty" doc:"Token revocation (RFC 7009)" example:"https://accounts.example.com/revoke"`
	// GrantTypes are the OAuth 2 grant types the token endpoint accepts
	// (grant_types_supported).
	GrantTypes []string `json:"grant_types_supported,omitempty" doc:"The OAuth 2 grant types the token endpoint accepts" example:"[\"password\",\"refresh_token\"]"`
	// ResponseTypes are the response_type values of the authorization endpoint
	// (response_types_supported, required): empty, not absent, without one.
	ResponseTypes []string `json:"response_types_supported" doc:"The response types of the authorization endpoint; empty without one" example:"[]"`
	// TokenAuthMethods are how clients authenticate at the token endpoint
	// (token_endpoint_auth_methods_supported); "none" for public clients.
	TokenAuthMethods []string `json:"token_endpoint_auth_methods_supported,omitempty" doc:"How clients authenticate at the token endpoint" example:"[\"none\"]"`
	// IntrospectionAuth are how clients authenticate at the introspection
	// endpoint (introspection_endpoint_auth_methods_supported).
	IntrospectionAuth []string `json:"introspection_endpoint_auth_methods_supported,omitempty" doc:"How clients authenticate at the introspection endpoint" example:"[\"client_secret_basic\"]"`
	// SigningAlgs are the JWS algorithms the issuer signs ID tokens with
	// (id_token_signing_alg_values_supported, OpenID Connect Discovery).
	SigningAlgs []string `json:"id_token_signing_alg_values_supported,omitempty" doc:"The algorithms the issuer signs its tokens with" example:"[\"EdDSA\"]"`
	// AccessTokenAlgs are the JWS algorithms the access tokens are signed with
	// (access_token_signing_alg_values_supported).
	AccessTokenAlgs []string `json:"access_token_signing_alg_values_supported,omitempty" doc:"The algorithms the access tokens are signed with" example:"[\"EdDSA\"]"`
	// SubjectTypes are the OpenID Connect subject identifier types
	// (subject_types_supported): "public", one sub for every client.
	SubjectTypes []string `json:"subject_types_supported,omitempty" doc:"OpenID Connect subject identifier types" example:"[\"public\"]"`
	// ScopesSupported are the scopes a client may ask for (scopes_supported).
	ScopesSupported []string `json:"scopes_supported,omitempty" doc:"The scopes a client may ask for" example:"[\"admin\"]"`
}

// ProtectedResource is a resource server's metadata (RFC 9728), served at
// /.well-known/oauth-protected-resource: which issuers' tokens it takes.
type ProtectedResource struct {
	// Resource is the resource identifier (resource): the resource server's own
	// URL, its metadata URL formed from it.
	Resource string `json:"resource" doc:"The resource server's own URL" example:"https://orders.example.com" validate:"required"`
	// AuthorizationServers are the issuer identifiers whose access tokens the
	// resource server accepts (authorization_servers).
	AuthorizationServers []string `json:"authorization_servers" doc:"The issuers whose access tokens the resource server accepts" example:"[\"https://accounts.example.com\"]" validate:"required"`
	// BearerMethods are how a bearer token may be presented
	// (bearer_methods_supported): "header", "body" or "query" (RFC 6750).
	BearerMethods []string `json:"bearer_methods_supported" doc:"How a token may be presented: the Authorization header only" example:"[\"header\"]" validate:"required"`
	// ScopesSupported are the scopes its routes require (scopes_supported).
	ScopesSupported []string `json:"scopes_supported,omitempty" doc:"The roles (scopes) its routes require" example:"[\"admin\"]"`
}

// Well-known paths of the metadata, never under a base path.
const (
	OpenIDConfigurationPath = "/.well-known/openid-configuration"
	AuthServerMetadataPath  = "/.well-known/oauth-authorization-server"
	ProtectedResourcePath   = "/.well-known/oauth-protected-resource"
	JWKSPath                = "/.well-known/jwks.json"
)

// IssuerURL checks that s can be an issuer's identifier (RFC 8414,
// section 2): an absolute http or https URL with a host and no query or
// fragment. It is returned as it is: an iss is compared letter for
// letter, a trailing slash included (Auth0's has one).
func IssuerURL(s string) (string, error) {
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return "", err
	case u.Scheme != "https" && u.Scheme != "http":
		return "", errors.New("want an https (or, in development, http) URL")
	case u.Host == "":
		return "", errors.New("want a URL with a host")
	case u.RawQuery != "" || u.Fragment != "" || u.User != nil:
		return "", errors.New("want a URL without a query, a fragment or credentials")
	}
	return s, nil
}
