package docs

import (
	"path"

	"github.com/gofiber/fiber/v2"
	"github.com/swaggest/swgui/v5/static"
)

// Register mounts GET {Prefix}/spec-ui.html and every asset the page
// references under {Prefix}/ on r. GET {Prefix} and {Prefix}/ redirect to the
// page. When cfg.Guard is set it runs first on every request under Prefix,
// including routes others register there afterwards, so register the spec
// document after calling Register to put it behind the same guard:
//
//	err := docs.Register(app, docs.Config{
//		Prefix: "/api/docs",
//		Guard:  docs.Guard(docs.GuardConfig{Users: users}),
//	})
//	app.Get("/api/docs/spec.json", serveSpec)
//
// The page and assets are prepared here, once; Register returns an error for
// an invalid Config and never fails at request time.
func Register(r fiber.Router, cfg Config) error {
	cfg, err := configDefault(cfg)
	if err != nil {
		return err
	}
	page, err := renderPage(cfg)
	if err != nil {
		return err
	}
	assets, err := loadAssets(static.FS)
	if err != nil {
		return err
	}
	if cfg.Guard != nil {
		// The wildcard matches the prefix itself too, and unlike Use it
		// stops at a path segment: "/docs/*" does not cover "/docsearch".
		r.All(cfg.Prefix+"/*", cfg.Guard)
	}
	r.Get(cfg.Prefix, redirectToPage)
	r.Get(cfg.Prefix+"/", redirectToPage)
	r.Get(cfg.Prefix+"/"+PageName, servePage(page))
	for _, a := range assets {
		r.Get(cfg.Prefix+"/"+a.name, a.serve)
	}
	return nil
}

// redirectToPage sends a request for the docs directory to the page. The
// location is relative, so it holds behind a proxy that rewrites the prefix.
func redirectToPage(c *fiber.Ctx) error {
	p := c.Path()
	if p[len(p)-1] == '/' {
		return c.Redirect(PageName)
	}
	return c.Redirect(path.Base(p) + "/" + PageName)
}
