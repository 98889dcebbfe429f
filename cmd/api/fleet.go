package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/asapjs/fiber-template/app"
	"github.com/asapjs/fiber-template/platform/token"
	"github.com/asapjs/fiber-template/platform/trust"
)

// fleet are the settings of a service among others (docs/fleet.md): its
// own public URL, which makes it an issuer others can trust, and the
// issuer it trusts as a resource server.
type fleet struct {
	// PublicURL is the service's URL as others reach it: the iss of its
	// tokens and the base of its issuer metadata.
	PublicURL string
	// Trust configures the verifier of the trusted issuer's tokens; its
	// Issuer is empty when the service trusts none.
	Trust trust.Config
	// KeepAccounts keeps the accounts example beside the trusted issuer.
	KeepAccounts bool
}

// resourceOnly reports whether the service only verifies another issuer's
// tokens and issues none.
func (f fleet) resourceOnly() bool { return f.Trust.Issuer != "" && !f.KeepAccounts }

// loadFleet reads the fleet settings. Every variable is read whether or
// not AUTH_ISSUER is set, and checked only when it is.
func loadFleet(cfg *config, lookupEnv func(string) (string, bool)) error {
	getenv := func(key string) string { v, _ := lookupEnv(key); return v }
	f := &cfg.Fleet
	production := cfg.Env == "production"
	var err error
	if v := getenv("PUBLIC_URL"); v != "" {
		if f.PublicURL, err = publicURL(v, production); err != nil {
			return fmt.Errorf("PUBLIC_URL: %w", err)
		}
		// The service's own URL is the base of its metadata's URLs.
		f.PublicURL = strings.TrimRight(f.PublicURL, "/")
	}
	issuer, jwks := getenv("AUTH_ISSUER"), getenv("AUTH_JWKS_URL")
	audience, roles := envOr(lookupEnv, "AUTH_AUDIENCE", app.DefaultAudience), envOr(lookupEnv, "AUTH_ROLES_CLAIM", trust.DefaultRolesClaim)
	minRefresh, keep := envOr(lookupEnv, "AUTH_JWKS_MIN_REFRESH", "1m"), envOr(lookupEnv, "AUTH_KEEP_ACCOUNTS", "false")
	in := introspectionSettings{
		url: getenv("AUTH_INTROSPECTION_URL"), id: getenv("AUTH_INTROSPECTION_CLIENT_ID"), secret: getenv("AUTH_INTROSPECTION_CLIENT_SECRET"),
		cache: envOr(lookupEnv, "AUTH_INTROSPECTION_CACHE", "30s"), failure: envOr(lookupEnv, "AUTH_INTROSPECTION_FAILURE", "closed"),
	}
	if issuer == "" {
		if jwks != "" || in.url != "" {
			return errors.New("AUTH_JWKS_URL and AUTH_INTROSPECTION_URL need AUTH_ISSUER, the iss the tokens must carry")
		}
		return nil
	}
	t := &f.Trust
	if t.Issuer, err = publicURL(issuer, production); err != nil {
		return fmt.Errorf("AUTH_ISSUER: %w", err)
	}
	if jwks != "" {
		if t.JWKSURL, err = publicURL(jwks, production); err != nil {
			return fmt.Errorf("AUTH_JWKS_URL: %w", err)
		}
	}
	if t.Audiences = splitList(audience); len(t.Audiences) == 0 {
		return errors.New("AUTH_AUDIENCE names no audience")
	}
	t.RolesClaim = roles
	if t.MinRefresh, err = positiveDuration("AUTH_JWKS_MIN_REFRESH", minRefresh); err != nil {
		return err
	}
	if f.KeepAccounts, err = parseBool(keep); err != nil {
		return fmt.Errorf("AUTH_KEEP_ACCOUNTS: %w", err)
	}
	return in.load(&t.Introspection, production)
}

// introspectionSettings are the AUTH_INTROSPECTION_* variables as set.
type introspectionSettings struct{ url, id, secret, cache, failure string }

// load checks the settings of the questions to the issuer.
func (s introspectionSettings) load(in *trust.Introspection, production bool) error {
	if s.url == "" {
		return nil
	}
	var err error
	if in.URL, err = publicURL(s.url, production); err != nil {
		return fmt.Errorf("AUTH_INTROSPECTION_URL: %w", err)
	}
	in.ClientID, in.ClientSecret = s.id, s.secret
	if in.ClientID == "" || in.ClientSecret == "" {
		return errors.New("AUTH_INTROSPECTION_URL needs AUTH_INTROSPECTION_CLIENT_ID and AUTH_INTROSPECTION_CLIENT_SECRET")
	}
	if in.Cache, err = positiveDuration("AUTH_INTROSPECTION_CACHE", s.cache); err != nil {
		return err
	}
	switch strings.ToLower(s.failure) {
	case "closed":
	case "open":
		in.FailOpen = true
	default:
		return fmt.Errorf("AUTH_INTROSPECTION_FAILURE must be closed or open, got %q", s.failure)
	}
	return nil
}

// publicURL checks an issuer URL: production takes only https, but for a
// loopback host (a test, or a proxy on the same machine).
func publicURL(v string, production bool) (string, error) {
	s, err := token.IssuerURL(v)
	if err != nil {
		return "", fmt.Errorf("%q: %w", v, err)
	}
	u, _ := url.Parse(s)
	if production && u.Scheme != "https" && !loopback(u.Hostname()) {
		return "", fmt.Errorf("%q: production takes an https URL", v)
	}
	return s, nil
}

// loopback reports whether host is localhost or a loopback address.
func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// discoverWithin bounds the start-up's wait for the trusted issuer, which
// may be starting beside the service.
const discoverWithin = 15 * time.Second

// trustedIssuer builds the verifier of the trusted issuer's tokens,
// waiting up to discoverWithin for its metadata.
func trustedIssuer(ctx context.Context, cfg config, logger *slog.Logger) (*trust.Verifier, error) {
	tc := cfg.Fleet.Trust
	tc.Logger = logger
	deadline := time.Now().Add(discoverWithin)
	for {
		v, err := trust.New(ctx, tc)
		if err == nil {
			logger.Info("trusting an issuer's tokens", slog.String("issuer", v.Issuer()), slog.String("metadata", v.MetadataURL),
				slog.Bool("accounts", cfg.Fleet.KeepAccounts), slog.Bool("introspection", tc.Introspection.URL != ""))
			return v, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("AUTH_ISSUER: %w", err)
		}
		logger.Warn("the trusted issuer's metadata could not be read: trying again", slog.Any("error", err))
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Second):
		}
	}
}
