package router

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	jsonv1 "github.com/go-json-experiment/json/v1"
	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/clientip"
	"github.com/asapjs/fiber-template/platform/middleware/accesslog"
	"github.com/asapjs/fiber-template/platform/middleware/requestid"
	"github.com/asapjs/fiber-template/platform/openapi"
	"github.com/asapjs/fiber-template/platform/token"
)

// Router is the plugin once started: the Fiber application with everything
// mounted, and the spec registry its routes were documented in.
type Router struct {
	cfg    Config
	app    *fiber.App
	spec   *openapi.Registry
	tokens *tokenCache
	// newID makes the request ids, of the middleware and of the errors
	// answered before it.
	newID func(dst []byte) []byte
	// keys verify the bearer tokens; nil when no route may need them.
	keys *token.Keys
	// routes are the mounted routes, their bindings handed their schemas
	// once the document is built.
	routes []*compiled
	// claimed are the routes served, by method and path shape (claim).
	claimed map[string]string
	health  HealthChecker
	outages []OutageDetector
	// readiness are the extensions /readyz asks besides health.
	readiness []ReadinessChecker
	// draining is set by Drain: /readyz answers 503.
	draining atomic.Bool
	// bodies are the routes that declare a request body: a request with
	// a body for any other is refused unread (bodiless.go).
	bodies bodyRoutes
	// clientIP makes the client address available to clientip.From.
	clientIP fiber.Handler
	// docsGuard protects the docs and developer tools; nil when open.
	docsGuard fiber.Handler
	// spec30 and spec31 are the document as OpenAPI 3.0 and 3.1.
	spec30, spec31 specFile

	// accessLog writes the request lines; nil without Config.LogRequests.
	accessLog *accesslog.Logger
	// metrics are the request metrics; nil without Config.Metrics.
	metrics *httpMetrics
	// tracing makes the request spans; nil without Config.TracerProvider.
	tracing *httpTracing
}

// New builds the application in a fixed start-up order: (1) extension
// wiring, (2) middleware, (3) controller mounting, (4) built-in endpoints,
// (5) the final error handler. Bad declarations fail here, never at request
// time.
func New(cfg Config) (*Router, error) {
	cfg = configDefault(cfg)
	if err := validateBasePath(cfg.BasePath); err != nil {
		return nil, err
	}
	tags, err := tagDescriptions(cfg)
	if err != nil {
		return nil, err
	}
	r := &Router{
		cfg:     cfg,
		spec:    openapi.New(specConfig(cfg, tags)),
		tokens:  newTokenCache(cfg.TokenCacheSize),
		bodies:  bodyRoutes{},
		claimed: map[string]string{},
	}
	r.keys = cfg.TokenKeys
	if r.keys == nil && len(cfg.JWTSecret) > 0 {
		if r.keys, err = token.NewSecret(cfg.JWTSecret); err != nil {
			return nil, fmt.Errorf("router: Config.JWTSecret: %w", err)
		}
	}

	if r.clientIP, err = clientip.New(clientip.Config{TrustedProxies: cfg.TrustedProxies, Header: cfg.ProxyHeader}); err != nil {
		return nil, fmt.Errorf("router: Config.TrustedProxies: %w", err)
	}
	if cfg.Metrics != nil {
		if r.metrics, err = newHTTPMetrics(cfg.Metrics); err != nil {
			return nil, err
		}
	}
	if cfg.TracerProvider != nil {
		r.tracing = newHTTPTracing(cfg.TracerProvider)
	}
	r.app = fiber.New(r.fiberConfig())
	r.answerUnknownMethods()
	r.recordServerErrors()
	r.readHeadsFirst()
	r.answerExpectations()

	if err := r.wireExtensions(); err != nil { // (1)
		return nil, err
	}
	if err := r.useMiddleware(); err != nil { // (2)
		return nil, err
	}
	for _, c := range cfg.Controllers { // (3)
		if err := r.mount(c); err != nil {
			return nil, err
		}
	}
	if err := r.registerBuiltins(); err != nil { // (4)
		return nil, err
	}
	if err := r.buildSpec(); err != nil {
		return nil, err
	}
	if err := r.bodies.learnPaths(r.app); err != nil {
		return nil, err
	}
	if r.metrics != nil || r.tracing != nil {
		templates := routeTemplates(r.app) // every route is registered now
		if r.metrics != nil {
			r.metrics.templates = templates
		}
		if r.tracing != nil {
			r.tracing.templates = templates
		}
	}
	return r, nil
}

// App returns the Fiber application, ready to Listen or Test.
func (r *Router) App() *fiber.App { return r.app }

// Spec returns the spec registry the routes were documented in.
func (r *Router) Spec() *openapi.Registry { return r.spec }

// SpecJSON returns the generated OpenAPI document, as spec.json serves it.
func (r *Router) SpecJSON() []byte { return r.spec30.body }

// SpecJSON31 returns the same document as OpenAPI 3.1, as spec-3.1.json
// serves it.
func (r *Router) SpecJSON31() []byte { return r.spec31.body }

// Shutdown stops accepting connections and waits for in-flight requests to
// finish until ctx is done.
func (r *Router) Shutdown(ctx context.Context) error {
	deadline, ok := ctx.Deadline()
	if !ok {
		return r.app.Shutdown()
	}
	return r.app.ShutdownWithTimeout(time.Until(deadline))
}

// DocsURL returns the path of the docs UI.
func (r *Router) DocsURL() string { return r.cfg.BasePath + "/docs/spec-ui.html" }

// RootURL returns the path of the root message.
func (r *Router) RootURL() string {
	if r.cfg.BasePath == "" {
		return "/"
	}
	return r.cfg.BasePath
}

func validateBasePath(p string) error {
	if p == "" {
		return nil
	}
	if !strings.HasPrefix(p, "/") || strings.HasSuffix(p, "/") || strings.ContainsAny(p, ":*? ") {
		return fmt.Errorf("router: base path %q must start with \"/\", not end with one and hold no parameters", p)
	}
	return nil
}

// specConfig derives the document settings from the router settings. The
// server is the origin only, so every path key is the full path the server
// routes (the health check lives outside the base path), and it never comes
// from a request: the configured host, or else "/" relative to whatever
// host served the document.
func specConfig(cfg Config, tags map[string]string) openapi.Config {
	server := "/"
	if cfg.APIDocs.Host != "" {
		server = cfg.APIDocs.Scheme + "://" + cfg.APIDocs.Host
	}
	return openapi.Config{
		Title:            cfg.APIDocs.Name,
		Version:          cfg.APIDocs.Version,
		Description:      cfg.APIDocs.Description,
		ServerURL:        server,
		TokenURL:         cfg.APIDocs.TokenURL,
		LoginDescription: cfg.APIDocs.LoginDescription,
		OpenIDConnectURL: cfg.APIDocs.OpenIDConnectURL,
		MaxLimit:         cfg.MaxLimit,
		TagDescriptions:  tags,
		RequestIDHeader:  requestid.ConfigDefault.Header,
	}
}

// fiberConfig is the configuration of the Fiber application of r.
func (r *Router) fiberConfig() fiber.Config {
	cfg := r.cfg
	return fiber.Config{
		AppName:   cfg.Name,
		BodyLimit: cfg.BodyLimit,
		// Bodies are read by the route that binds them, after its
		// authentication, roles and content type are checked (see
		// bodystream.go); multipart files go to temporary files as they
		// arrive.
		StreamRequestBody:            true,
		DisablePreParseMultipartForm: true,
		// No ProxyHeader: c.IP() is the TCP peer, and the client address
		// comes from clientip (see useMiddleware). The proxy check stays
		// on, so X-Forwarded-Host and -Proto count from TrustedProxies
		// only, none by default.
		EnableTrustedProxyCheck: true,
		TrustedProxies:          cfg.TrustedProxies,
		DisableStartupMessage:   true,
		// A path is the document's, letter for letter and without a
		// trailing slash: /Users and /users/ are not /users.
		CaseSensitive:  true,
		StrictRouting:  true,
		ReadTimeout:    cfg.ReadTimeout,
		ReadBufferSize: cfg.ReadBufferSize,
		WriteTimeout:   cfg.WriteTimeout,
		IdleTimeout:    cfg.IdleTimeout,
		// (5) The final error handler sees every error that did not become
		// a response on its way up, including fasthttp's own (413).
		ErrorHandler: r.handleError,
		// Answers are written with encoding/json's semantics on the engine
		// of encoding/json/v2 (the module that mirrors it until the
		// standard library has it): the same bytes, without an allocation
		// for every value that marshals itself, such as a time.Time.
		JSONEncoder: jsonv1.Marshal,
	}
}
