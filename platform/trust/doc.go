// Package trust makes a service a resource server of another issuer: it
// verifies the issuer's access tokens against the issuer's published keys
// (a JWK Set found through its metadata, RFC 8414 or OpenID Connect
// Discovery), maps the issuer's claims onto token.Claims (roles from a
// claim of its shape, such as Keycloak's realm_access.roles or a scope
// string), and optionally asks the issuer whether a token is still active
// (RFC 7662 introspection) to see logouts.
//
// It fetches only the URLs its Config names, or the issuer's metadata
// names: never a URL a token carries (its jku, x5u or iss headers and
// claims), and never a redirect.
package trust
