package docs_test

import (
	"encoding/base64"
	"errors"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path"
	"regexp"
	"testing"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/docs"
	"github.com/asapjs/fiber-template/platform/problem"
	"github.com/asapjs/fiber-template/platform/servicetest"
)

// response is what app.Test answered, body read.
type response struct {
	status int
	header http.Header
	body   []byte
}

// newFiber returns an empty app whose error handler answers a declared
// error with its problem, as the router's does, and any other error as
// Fiber does.
func newFiber() *fiber.App {
	return fiber.New(fiber.Config{DisableStartupMessage: true, ErrorHandler: func(c *fiber.Ctx, err error) error {
		var declared *problem.Error
		if !errors.As(err, &declared) {
			return fiber.DefaultErrorHandler(c, err)
		}
		c.Status(declared.Status)
		return c.JSON(declared.Problem(), problem.ContentType)
	}})
}

// newApp returns an app with the docs registered by cfg.
func newApp(t *testing.T, cfg docs.Config) *fiber.App {
	t.Helper()
	app := newFiber()
	if err := docs.Register(app, cfg); err != nil {
		t.Fatalf("Register(%+v): %v", cfg, err)
	}
	return app
}

// request sends method target to app with the given header name/value pairs.
func request(t *testing.T, app *fiber.App, method, target string, header ...string) response {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res := servicetest.Do(t, app, req)
	return response{status: res.Status, header: res.Header, body: res.Body}
}

// basic returns an Authorization header value of the Basic scheme.
func basic(user, password string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+password))
}

// referenceRE finds the URLs an HTML page loads or links to.
var referenceRE = regexp.MustCompile(`(?i)\b(?:src|href)\s*=\s*["']([^"']+)["']`)

// references returns the src and href URLs of page, resolved against
// pageURL the way a browser resolves them.
func references(t *testing.T, pageURL string, page []byte) []*url.URL {
	t.Helper()
	base, err := url.Parse(pageURL)
	if err != nil {
		t.Fatal(err)
	}
	var refs []*url.URL
	for _, m := range referenceRE.FindAllSubmatch(page, -1) {
		ref, err := url.Parse(string(m[1]))
		if err != nil {
			t.Fatalf("page references %q: %v", m[1], err)
		}
		refs = append(refs, base.ResolveReference(ref))
	}
	return refs
}

// mediaType returns the media type of a Content-Type value, parameters
// dropped.
func mediaType(t *testing.T, contentType string) string {
	t.Helper()
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		t.Fatalf("Content-Type %q: %v", contentType, err)
	}
	return mt
}

// wantMediaTypes are the media types acceptable for a file extension.
func wantMediaTypes(name string) []string {
	switch path.Ext(name) {
	case ".js":
		return []string{"text/javascript", "application/javascript"}
	case ".css":
		return []string{"text/css"}
	case ".png":
		return []string{"image/png"}
	case ".html":
		return []string{"text/html"}
	}
	return nil
}
