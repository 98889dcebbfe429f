package docs

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/gofiber/fiber/v2"

	entity "github.com/asapjs/fiber-template/platform/etag"
)

// asset is one embedded file of the UI. It is held both as stored and
// decompressed, so that answering a request costs no compression work.
type asset struct {
	name        string
	contentType string
	plain       []byte
	plainETag   string
	gzip        []byte // nil when the file is not stored compressed
	gzipETag    string
}

// contentType returns the media type of an embedded file from its
// extension. A fixed table keeps the answer independent of the host's
// mime.types, which the standard library would otherwise consult.
func contentType(name string) (string, bool) {
	switch path.Ext(name) {
	case ".js":
		return "text/javascript; charset=utf-8", true
	case ".css":
		return "text/css; charset=utf-8", true
	case ".html":
		return fiber.MIMETextHTMLCharsetUTF8, true
	case ".png":
		return "image/png", true
	}
	return "", false
}

// brokenRedirectPage is the OAuth2 redirect page swgui ships. It loads an
// oauth2-redirect.js that swgui does not ship, so it could never work; it is
// only needed by redirect-based flows, which the spec does not declare.
const brokenRedirectPage = "oauth2-redirect.html"

// loadAssets reads the files at the root of fsys. A "name.gz" file is served
// as "name" in either encoding. Files of an unknown type are left out
// rather than served with a guessed one.
func loadAssets(fsys fs.FS) ([]*asset, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("docs: list UI assets: %w", err)
	}
	assets := make([]*asset, 0, len(entries))
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		name, compressed := strings.CutSuffix(e.Name(), ".gz")
		ctype, ok := contentType(name)
		if !ok || name == brokenRedirectPage {
			continue
		}
		stored, err := fs.ReadFile(fsys, e.Name())
		if err != nil {
			return nil, fmt.Errorf("docs: read UI asset %s: %w", e.Name(), err)
		}
		a := &asset{name: name, contentType: ctype, plain: stored}
		if compressed {
			a.gzip = stored
			if a.plain, err = gunzip(stored); err != nil {
				return nil, fmt.Errorf("docs: decompress UI asset %s: %w", e.Name(), err)
			}
		}
		sum := sha256.Sum256(a.plain)
		tag := hex.EncodeToString(sum[:12])
		// Each encoding is its own representation and needs its own tag.
		a.plainETag, a.gzipETag = `"`+tag+`"`, `"`+tag+`-gzip"`
		assets = append(assets, a)
	}
	slices.SortFunc(assets, func(a, b *asset) int { return strings.Compare(a.name, b.name) })
	return assets, nil
}

// gunzip decompresses b.
func gunzip(b []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	return io.ReadAll(zr)
}

// serve answers with the asset, gzip-encoded when the client accepts it.
// File names carry no version, so clients revalidate with the ETag and get
// 304 Not Modified until the embedded UI changes.
func (a *asset) serve(c *fiber.Ctx) error {
	body, etag := a.plain, a.plainETag
	if a.gzip != nil {
		c.Vary(fiber.HeaderAcceptEncoding)
		if c.Context().Request.Header.HasAcceptEncoding("gzip") {
			body, etag = a.gzip, a.gzipETag
			c.Set(fiber.HeaderContentEncoding, "gzip")
		}
	}
	c.Set(fiber.HeaderContentType, a.contentType)
	c.Set(fiber.HeaderCacheControl, "no-cache")
	c.Set(fiber.HeaderETag, etag)
	if entity.ParseFields(c.Request().Header.PeekAll(fiber.HeaderIfNoneMatch)).MatchWeak(etag) {
		return c.SendStatus(fiber.StatusNotModified)
	}
	return c.Send(body)
}
