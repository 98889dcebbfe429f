package docs

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/swaggest/swgui"
	"github.com/swaggest/swgui/v5emb"
)

// pageSettings are the SwaggerUIBundle options the page overrides, as
// JavaScript expressions. They run inside swgui's window.onload, where cfg
// holds the JSON form of the swgui configuration.
func pageSettings(cfg Config) (map[string]string, error) {
	// swgui's own plugin, and the Authorize dialog cut down to the user
	// name and password the password flow's login reads, and to the
	// schemes a person uses (Config.Schemes).
	plugins := []string{"SwaggerUIBundle.plugins.DownloadUrl", passwordFlowOnly}
	if len(cfg.Schemes) > 0 {
		offered, err := offeredSchemes(cfg.Schemes)
		if err != nil {
			return nil, err
		}
		plugins = append(plugins, offered)
	}
	return map[string]string{
		// swgui joins a relative spec URL to the page path as if the page
		// were a directory ("spec-ui.html/spec.json"); resolving it like a
		// link makes absolute paths, relative references and full URLs work
		// under any prefix.
		"url": "new URL(cfg.swaggerJsonUrl, window.location.href).href",
		// The spec's OAuthLogin scheme is a password flow: the Authorize
		// dialog posts user name and password to its tokenUrl, and this keeps
		// the token it gets across reloads instead of asking again. The
		// password flow needs no redirect page, which is why none is served.
		"persistAuthorization": "true",
		"plugins":              "[" + strings.Join(plugins, ", ") + "]",
	}, nil
}

// renderPage renders the UI page once, at registration, so a request only
// copies bytes.
func renderPage(cfg Config) ([]byte, error) {
	settings, err := pageSettings(cfg)
	if err != nil {
		return nil, err
	}
	h := v5emb.NewHandlerWithConfig(swgui.Config{
		Title:       cfg.Title,
		SwaggerJSON: cfg.SpecURL,
		// Assets are linked relative to the page, so the page works under
		// any prefix, inside a group and behind a path-rewriting proxy.
		BasePath: "./",
		// The handler renders the page for this path; Register routes the
		// real paths itself.
		InternalBasePath: "/",
		SettingsUI:       settings,
	})
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, "/", nil)
	if err != nil {
		return nil, fmt.Errorf("docs: render page: %w", err)
	}
	w := &pageWriter{header: http.Header{}}
	h.ServeHTTP(w, req)
	if w.status != 0 && w.status != http.StatusOK {
		return nil, fmt.Errorf("docs: render page: status %d: %s", w.status, bytes.TrimSpace(w.body.Bytes()))
	}
	return w.body.Bytes(), nil
}

// pageWriter captures the page rendered by the swgui handler.
type pageWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
}

// Header returns the response header map.
func (w *pageWriter) Header() http.Header { return w.header }

// Write appends b to the captured body.
func (w *pageWriter) Write(b []byte) (int, error) { return w.body.Write(b) }

// WriteHeader records the status.
func (w *pageWriter) WriteHeader(status int) { w.status = status }

// servePage answers with the rendered page. A trailing slash would make the
// relative asset links resolve below the page, so it is redirected away.
func servePage(page []byte) fiber.Handler {
	return func(c *fiber.Ctx) error {
		if len(c.Path()) > 1 && c.Path()[len(c.Path())-1] == '/' {
			return c.Redirect("../" + PageName)
		}
		c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
		c.Set(fiber.HeaderCacheControl, "no-cache")
		return c.Send(page)
	}
}
