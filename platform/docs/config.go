package docs

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gofiber/fiber/v2"
)

// Defaults applied by Register to the zero fields of a Config.
const (
	// DefaultTitle is the page title when Config.Title is empty.
	DefaultTitle = "API docs"
	// DefaultSpecName is the document name appended to Config.Prefix when
	// Config.SpecURL is empty.
	DefaultSpecName = "spec.json"
)

// PageName is the file name of the UI page under Config.Prefix.
const PageName = "spec-ui.html"

// Config configures Register.
type Config struct {
	// Prefix is the path the docs are mounted under on the router handed to
	// Register, e.g. "/api/docs", or "/docs" when the API has no base path.
	// It must start with "/", must not be "/" alone and holds no route
	// parameters; a trailing "/" is dropped.
	//
	// Required.
	Prefix string

	// SpecURL is the URL of the OpenAPI JSON document the page loads. The
	// browser resolves it against the page URL, so an absolute path
	// ("/api/docs/spec.json"), a relative reference ("spec.json", handy when
	// Register is handed a group) and a full URL all work.
	//
	// Optional. Default: Prefix + "/spec.json"
	SpecURL string

	// Title is the page title.
	//
	// Optional. Default: "API docs"
	Title string

	// Guard runs before every request under Prefix: the page, its assets,
	// unknown paths, and every route registered under Prefix after Register,
	// such as the spec document. Use Guard(GuardConfig{...}) for Basic
	// authentication.
	//
	// Optional. Default: nil (the docs are open)
	Guard fiber.Handler

	// Schemes names the security schemes of the document that the page's
	// Authorize dialog offers: those a person uses in a browser, such as a
	// password flow and a bearer token. The document keeps the others (the
	// credentials of other services, say) for the machines that read it;
	// the dialog, and the lock of an operation that takes only those, shows
	// none of them.
	//
	// Optional. Default: nil (every scheme of the document)
	Schemes []string
}

// ConfigDefault is the default configuration. It has no Prefix, which
// Register requires.
var ConfigDefault = Config{
	Title: DefaultTitle,
}

// errNoPrefix is returned when Config.Prefix is empty.
var errNoPrefix = errors.New("docs: Config.Prefix is required")

// configDefault validates cfg and fills its zero fields with their defaults.
func configDefault(cfg Config) (Config, error) {
	if cfg.Prefix == "" {
		return cfg, errNoPrefix
	}
	prefix := strings.TrimSuffix(cfg.Prefix, "/")
	if !strings.HasPrefix(cfg.Prefix, "/") || prefix == "" || strings.ContainsAny(prefix, ":*?+# ") {
		return cfg, fmt.Errorf("docs: prefix %q must start with \"/\", not be \"/\" alone and hold no route parameters", cfg.Prefix)
	}
	cfg.Prefix = prefix
	if cfg.SpecURL == "" {
		cfg.SpecURL = cfg.Prefix + "/" + DefaultSpecName
	}
	if cfg.Title == "" {
		cfg.Title = ConfigDefault.Title
	}
	return cfg, nil
}
