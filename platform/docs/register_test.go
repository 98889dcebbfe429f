package docs_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/docs"
)

func TestRegister(t *testing.T) {
	t.Parallel()
	for _, prefix := range []string{"/api/docs", "/docs"} {
		t.Run("serves the page under "+prefix+" with every asset it references", func(t *testing.T) {
			t.Parallel()
			app := newApp(t, docs.Config{Prefix: prefix})
			page := request(t, app, fiber.MethodGet, prefix+"/spec-ui.html")
			if page.status != fiber.StatusOK {
				t.Fatalf("page status = %d, want 200", page.status)
			}
			if got := page.header.Get(fiber.HeaderContentType); got != "text/html; charset=utf-8" {
				t.Errorf("page Content-Type = %q, want text/html; charset=utf-8", got)
			}
			refs := references(t, "http://example.test"+prefix+"/spec-ui.html", page.body)
			if len(refs) < 5 {
				t.Fatalf("page references %d URLs, want the stylesheet, two icons and two scripts", len(refs))
			}
			for _, ref := range refs {
				if ref.Host != "example.test" || !strings.HasPrefix(ref.Path, prefix+"/") {
					t.Errorf("page references %s, want a file under %s/ of the same server", ref, prefix)
					continue
				}
				asset := request(t, app, fiber.MethodGet, ref.RequestURI())
				if asset.status != fiber.StatusOK || len(asset.body) == 0 {
					t.Errorf("GET %s = %d with %d bytes, want 200 with a body", ref.Path, asset.status, len(asset.body))
				}
				want := wantMediaTypes(ref.Path)
				if got := mediaType(t, asset.header.Get(fiber.HeaderContentType)); !slices.Contains(want, got) {
					t.Errorf("GET %s Content-Type = %q, want one of %q", ref.Path, got, want)
				}
				if strings.HasSuffix(ref.Path, ".png") && !bytes.HasPrefix(asset.body, []byte("\x89PNG")) {
					t.Errorf("GET %s is not a PNG image", ref.Path)
				}
			}
		})
	}

	t.Run("drops a trailing slash from the prefix", func(t *testing.T) {
		t.Parallel()
		app := newApp(t, docs.Config{Prefix: "/api/docs/"})
		if got := request(t, app, fiber.MethodGet, "/api/docs/spec-ui.html"); got.status != fiber.StatusOK {
			t.Errorf("page status = %d, want 200", got.status)
		}
	})

	t.Run("answers 404 for a file the UI does not have", func(t *testing.T) {
		t.Parallel()
		app := newApp(t, docs.Config{Prefix: "/docs"})
		if got := request(t, app, fiber.MethodGet, "/docs/secrets.txt"); got.status != fiber.StatusNotFound {
			t.Errorf("status = %d, want 404", got.status)
		}
	})

	t.Run("does not serve the OAuth2 redirect page whose script swgui lacks", func(t *testing.T) {
		t.Parallel()
		app := newApp(t, docs.Config{Prefix: "/docs"})
		if got := request(t, app, fiber.MethodGet, "/docs/oauth2-redirect.html"); got.status != fiber.StatusNotFound {
			t.Errorf("status = %d, want 404", got.status)
		}
	})
}

func TestRegisterRejectsAnInvalidPrefix(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, prefix string
	}{
		{"an empty prefix is refused", ""},
		{"a prefix without a leading slash is refused", "docs"},
		{"the root prefix alone is refused", "/"},
		{"a prefix with a route parameter is refused", "/docs/:version"},
		{"a prefix with a wildcard is refused", "/docs/*"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if err := docs.Register(fiber.New(), docs.Config{Prefix: tc.prefix}); err == nil {
				t.Errorf("Register with prefix %q returned no error", tc.prefix)
			}
		})
	}
}

func TestThePage(t *testing.T) {
	t.Parallel()
	specCases := []struct {
		name, prefix, specURL, want string
	}{
		{"loads the spec next to the page by default under /api/docs", "/api/docs", "", "/api/docs/spec.json"},
		{"loads the spec next to the page by default under the root prefix /docs", "/docs", "", "/docs/spec.json"},
		{"loads a configured absolute spec path", "/docs", "/openapi/v1.json", "/openapi/v1.json"},
		{"loads a configured relative spec URL", "/docs", "spec.json", "spec.json"},
	}
	for _, tc := range specCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			app := newApp(t, docs.Config{Prefix: tc.prefix, SpecURL: tc.specURL})
			page := string(request(t, app, fiber.MethodGet, tc.prefix+"/spec-ui.html").body)
			if want := `"swaggerJsonUrl":"` + tc.want + `"`; !strings.Contains(page, want) {
				t.Errorf("page does not hold %s", want)
			}
			// swgui would join a relative URL to the page path as if it were a
			// directory; the page must resolve it like a link instead.
			if want := "url: new URL(cfg.swaggerJsonUrl, window.location.href).href"; !strings.Contains(page, want) {
				t.Errorf("page does not resolve the spec URL against its own URL (%s)", want)
			}
		})
	}

	settingCases := []struct {
		name, setting string
	}{
		{"keeps the password flow token across reloads", "persistAuthorization: true"},
		{"never calls the remote spec validator", "validatorUrl: null"},
	}
	for _, tc := range settingCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			app := newApp(t, docs.Config{Prefix: "/docs"})
			page := string(request(t, app, fiber.MethodGet, "/docs/spec-ui.html").body)
			if !regexp.MustCompile(`\b` + regexp.QuoteMeta(tc.setting) + `\s*[,\n]`).MatchString(page) {
				t.Errorf("page settings lack %q", tc.setting)
			}
		})
	}

	titleCases := []struct {
		name, title, want string
	}{
		{"is titled API docs by default", "", "<title>API docs - Swagger UI</title>"},
		{"carries the configured title, escaped", "Pets & <Owners>", "<title>Pets &amp; &lt;Owners&gt; - Swagger UI</title>"},
	}
	for _, tc := range titleCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			app := newApp(t, docs.Config{Prefix: "/docs", Title: tc.title})
			if page := string(request(t, app, fiber.MethodGet, "/docs/spec-ui.html").body); !strings.Contains(page, tc.want) {
				t.Errorf("page does not hold %s", tc.want)
			}
		})
	}

	t.Run("references no host but the one serving it, so it works offline", func(t *testing.T) {
		t.Parallel()
		app := newApp(t, docs.Config{Prefix: "/api/docs"})
		page := request(t, app, fiber.MethodGet, "/api/docs/spec-ui.html").body
		if hosts := regexp.MustCompile(`(?i)(?:https?:)?//[a-z0-9][a-z0-9.-]*`).FindAll(page, -1); len(hosts) > 0 {
			t.Errorf("page references hosts %q", hosts)
		}
		for _, ref := range references(t, "http://self.test/api/docs/spec-ui.html", page) {
			if ref.Host != "self.test" {
				t.Errorf("page loads %s from another host", ref)
			}
		}
		css := request(t, app, fiber.MethodGet, "/api/docs/swagger-ui.css").body
		for _, m := range regexp.MustCompile(`url\(\s*["']?([^"')]*)`).FindAllSubmatch(css, -1) {
			if u, err := url.Parse(string(m[1])); err != nil || (u.Scheme != "data" && u.Host != "") {
				t.Errorf("stylesheet loads %.60q from the network", m[1])
			}
		}
	})
}

func TestTheDocsDirectoryRedirectsToThePage(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, prefix, target string
	}{
		{"the prefix without a slash redirects to the page", "/api/docs", "/api/docs"},
		{"the prefix with a slash redirects to the page", "/api/docs", "/api/docs/"},
		{"the root prefix redirects to the page", "/docs", "/docs"},
		{"the root prefix with a slash redirects to the page", "/docs", "/docs/"},
		{"the page with a trailing slash redirects to the page", "/docs", "/docs/spec-ui.html/"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			app := newApp(t, docs.Config{Prefix: tc.prefix})
			got := request(t, app, fiber.MethodGet, tc.target)
			if got.status != fiber.StatusFound {
				t.Fatalf("GET %s = %d, want 302", tc.target, got.status)
			}
			loc, err := url.Parse(got.header.Get(fiber.HeaderLocation))
			if err != nil {
				t.Fatal(err)
			}
			base := &url.URL{Scheme: "http", Host: "example.test", Path: tc.target}
			if got, want := base.ResolveReference(loc).Path, tc.prefix+"/spec-ui.html"; got != want {
				t.Errorf("GET %s redirects to %s, want %s", tc.target, got, want)
			}
		})
	}
}

func TestAssetCaching(t *testing.T) {
	t.Parallel()
	const asset = "/docs/swagger-ui-bundle.js"

	t.Run("a client that accepts gzip gets the stored gzip bytes", func(t *testing.T) {
		t.Parallel()
		app := newApp(t, docs.Config{Prefix: "/docs"})
		plain := request(t, app, fiber.MethodGet, asset)
		zipped := request(t, app, fiber.MethodGet, asset, fiber.HeaderAcceptEncoding, "gzip, deflate, br")
		if got := plain.header.Get(fiber.HeaderContentEncoding); got != "" {
			t.Errorf("without Accept-Encoding, Content-Encoding = %q, want none", got)
		}
		if got := zipped.header.Get(fiber.HeaderContentEncoding); got != "gzip" {
			t.Fatalf("with Accept-Encoding gzip, Content-Encoding = %q, want gzip", got)
		}
		if got := zipped.header.Get(fiber.HeaderVary); !strings.Contains(got, fiber.HeaderAcceptEncoding) {
			t.Errorf("Vary = %q, want it to name Accept-Encoding", got)
		}
		zr, err := gzip.NewReader(bytes.NewReader(zipped.body))
		if err != nil {
			t.Fatal(err)
		}
		unzipped, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(unzipped, plain.body) {
			t.Error("the gzip body does not decompress to the plain body")
		}
		if plain.header.Get(fiber.HeaderETag) == zipped.header.Get(fiber.HeaderETag) {
			t.Error("both encodings carry the same ETag")
		}
	})

	t.Run("a client that has the asset gets 304 Not Modified", func(t *testing.T) {
		t.Parallel()
		app := newApp(t, docs.Config{Prefix: "/docs"})
		first := request(t, app, fiber.MethodGet, asset)
		etag := first.header.Get(fiber.HeaderETag)
		if etag == "" {
			t.Fatal("asset has no ETag")
		}
		again := request(t, app, fiber.MethodGet, asset, fiber.HeaderIfNoneMatch, etag)
		if again.status != fiber.StatusNotModified || len(again.body) != 0 {
			t.Errorf("revalidation = %d with %d bytes, want 304 without a body", again.status, len(again.body))
		}
		for _, other := range []string{`"other"`, `junk, *`, etag + ` junk`} {
			changed := request(t, app, fiber.MethodGet, asset, fiber.HeaderIfNoneMatch, other)
			if changed.status != fiber.StatusOK {
				t.Errorf("revalidation with If-None-Match %s = %d, want 200", other, changed.status)
			}
		}
	})
}
