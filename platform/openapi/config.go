package openapi

import (
	"maps"
	"strings"

	"github.com/asapjs/fiber-template/platform/paging"
)

// Defaults applied by New to the zero fields of a Config.
const (
	// DefaultTitle is info.title when Config.Title is empty.
	DefaultTitle = "API"
	// DefaultVersion is info.version when Config.Version is empty.
	DefaultVersion = "1.0.0"
	// DefaultServerURL is servers[0].url when Config.ServerURL is empty.
	DefaultServerURL = "/"
)

// Config holds the document-level settings of a Registry.
type Config struct {
	// Title is info.title. Default: DefaultTitle.
	Title string
	// Version is info.version, the version of the API (not of OpenAPI).
	// Default: DefaultVersion.
	Version string
	// Description is info.description. Default: none.
	Description string
	// License is info.license. Default: none (linters warn, nothing fails).
	License *License
	// ServerURL is servers[0].url: an absolute URL
	// ("https://api.example.com/api") or a base path ("/api"). Route paths
	// that start with its path are documented relative to it, as clients
	// join the two. A trailing slash is dropped. Default: DefaultServerURL.
	ServerURL string
	// TokenURL is the tokenUrl of the OAuthLogin password flow, e.g.
	// "/api/auth/login". Default: none, and then the document has no
	// OAuthLogin scheme, since a flow without a tokenUrl is invalid.
	TokenURL string
	// LoginDescription is the description of the OAuthLogin password
	// flow: what its user name and password are. Default: none.
	LoginDescription string
	// OpenIDConnectURL, when set, makes the OAuthLogin scheme an
	// openIdConnect one with this discovery URL instead of the password
	// flow of TokenURL: the docs UI logs in at that issuer. Default: none.
	OpenIDConnectURL string
	// MaxLimit is the maximum of the query parameter tagged
	// paging.LimitParam, as the router's Config.MaxLimit. Default:
	// paging.DefaultMaxLimit.
	MaxLimit int
	// TagDescriptions describes route tags by name in the top-level tags
	// list, which lists the tags the routes use. Default: none.
	TagDescriptions map[string]string
	// RequestIDHeader, when set, is documented on every response: the
	// header that carries the request's id (the router's X-Request-ID).
	// Default: none.
	RequestIDHeader string
}

// configDefault returns cfg with its zero fields set to their defaults.
func configDefault(cfg Config) Config {
	if cfg.Title == "" {
		cfg.Title = DefaultTitle
	}
	if cfg.Version == "" {
		cfg.Version = DefaultVersion
	}
	if cfg.ServerURL == "" {
		cfg.ServerURL = DefaultServerURL
	}
	if cfg.ServerURL != "/" {
		cfg.ServerURL = strings.TrimRight(cfg.ServerURL, "/")
		if cfg.ServerURL == "" {
			cfg.ServerURL = "/"
		}
	}
	if cfg.MaxLimit <= 0 {
		cfg.MaxLimit = paging.DefaultMaxLimit
	}
	if cfg.License != nil {
		l := *cfg.License
		cfg.License = &l
	}
	cfg.TagDescriptions = maps.Clone(cfg.TagDescriptions)
	return cfg
}
