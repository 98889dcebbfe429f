package trust

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/asapjs/fiber-template/platform/token"
)

// Discover fetches the metadata of issuer: at issuer +
// /.well-known/openid-configuration (OpenID Connect Discovery), then at
// the RFC 8414 place, /.well-known/oauth-authorization-server with the
// issuer's path after it. The metadata must name issuer exactly and a
// jwks_uri. It returns the metadata and the URL it was found at.
func Discover(ctx context.Context, cfg Config) (*token.Metadata, string, error) {
	cfg = configDefault(cfg)
	issuer := cfg.Issuer
	u, err := url.Parse(strings.TrimRight(issuer, "/"))
	if err != nil {
		return nil, "", fmt.Errorf("trust: issuer %q: %w", cfg.Issuer, err)
	}
	rfc8414 := *u
	rfc8414.Path = token.AuthServerMetadataPath + u.Path
	var errs []error
	for _, place := range []string{strings.TrimRight(issuer, "/") + token.OpenIDConfigurationPath, rfc8414.String()} {
		var m token.Metadata
		if _, err := getJSON(ctx, cfg.Client, place, &m); err != nil {
			errs = append(errs, err)
			continue
		}
		switch {
		case m.Issuer != issuer:
			return nil, "", fmt.Errorf("trust: %s names the issuer %q, not %q", place, m.Issuer, issuer)
		case m.JWKSURI == "":
			return nil, "", fmt.Errorf("trust: %s names no jwks_uri", place)
		}
		return &m, place, nil
	}
	return nil, "", fmt.Errorf("trust: no metadata of %s: %w", issuer, errors.Join(errs...))
}
