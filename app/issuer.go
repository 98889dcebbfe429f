package app

import (
	"github.com/asapjs/fiber-template/platform/token"
)

// issuerMetadata is what the service says of itself as an issuer (RFC
// 8414): its URL, which is the iss of its tokens, the JWK Set they verify
// with, the login (the password grant) and refresh as the token endpoint,
// and introspection when clients may use it. It has no authorization
// endpoint: users log in with the password grant, not in a browser flow.
func issuerMetadata(opts Options, basePath string) *token.Metadata {
	base := opts.PublicURL
	m := &token.Metadata{
		Issuer:           opts.Issuer,
		JWKSURI:          base + token.JWKSPath,
		TokenEndpoint:    base + basePath + "/auth/login",
		GrantTypes:       []string{"password"},
		ResponseTypes:    []string{},
		TokenAuthMethods: []string{"none"},
		SigningAlgs:      []string{token.AlgEdDSA},
		AccessTokenAlgs:  []string{token.AlgEdDSA},
		SubjectTypes:     []string{"public"},
	}
	if len(opts.IntrospectionClients) > 0 {
		m.IntrospectionEndpoint = base + basePath + "/auth/introspect"
		m.IntrospectionAuth = []string{"client_secret_basic"}
	}
	return m
}
