package router

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/docs"
	"github.com/asapjs/fiber-template/platform/middleware/requestid"
	"github.com/asapjs/fiber-template/platform/openapi"
	"github.com/asapjs/fiber-template/platform/problem"
	"github.com/asapjs/fiber-template/platform/token"
)

// RootMessage is the body of GET {basePath}.
type RootMessage struct {
	// Message says the service runs.
	Message string `json:"message" doc:"Confirms that the server runs" example:"api is running" validate:"required"`
}

// HealthStatus is the body of GET /health-check.
type HealthStatus struct {
	// Status is "ok" when the service and its database can serve.
	Status string `json:"status" doc:"Service status" validate:"required,oneof=ok"`
	// Database is "ok", or "not configured" without a database extension.
	Database string `json:"database" doc:"Database status" validate:"required,oneof=ok 'not configured'"`
}

// systemTag is the documentation tag of the built-in routes.
const systemTag = "System"

// registerBuiltins is start-up step 4: the root message, the health check,
// the probes, the docs endpoints and the database developer tools.
func (r *Router) registerBuiltins() error {
	root := r.RootURL()
	message := RootMessage{Message: r.cfg.Name + " is running"}
	if err := r.add(Get(root, func(c *Ctx, _ *struct{}) (*RootMessage, error) {
		return &message, nil
	}, Summary("Service status message"), Tag(systemTag), OperationID("getRoot"))); err != nil {
		return err
	}
	if err := r.add(Get("/health-check", r.healthCheck,
		Summary("Health check"), Description("Runs SELECT 1 against the database."), Tag(systemTag),
		OperationID("getHealthCheck"), Errors(errDatabaseUnavailable))); err != nil {
		return err
	}
	if err := r.registerProbes(); err != nil {
		return err
	}
	if err := r.registerJWKS(); err != nil {
		return err
	}
	if err := r.registerMetadata(); err != nil {
		return err
	}
	if err := r.registerDocs(); err != nil {
		return err
	}
	if err := r.registerMetrics(); err != nil {
		return err
	}
	return r.registerDevTools()
}

// jwksMaxAge is how long other services may cache the JWK Set; after a
// rotation, a verifier that meets an unknown kid fetches it again anyway.
const jwksMaxAge = 5 * time.Minute

// registerJWKS serves the public keys of the access tokens at
// /.well-known/jwks.json (the well-known place, never prefixed) whenever
// the router verifies tokens: the Ed25519 keys other services verify the
// tokens with, or none for an HS256 secret, so that the document is the
// same in either mode.
func (r *Router) registerJWKS() error {
	if r.keys == nil {
		return nil
	}
	set := r.keys.PublicKeys()
	return r.add(Get("/.well-known/jwks.json", func(c *Ctx, _ *struct{}) (*token.JWKSet, error) {
		c.Fiber().Set(fiber.HeaderCacheControl, fmt.Sprintf("public, max-age=%d", int(jwksMaxAge/time.Second)))
		return &set, nil
	}, Summary("Public keys of the access tokens"),
		Description("The JWK Set other services verify this service's access tokens with (EdDSA, Ed25519): each "+
			"token's kid header names its key. Cacheable; after a key rotation the new key comes first and the old "+
			"ones stay until their tokens expire. Empty when the service signs with a shared HS256 secret."),
		Tag(systemTag), OperationID("getJWKS"),
		Header(fiber.HeaderCacheControl, fmt.Sprintf("public, max-age=%d: verifiers may keep the keys that long", int(jwksMaxAge/time.Second)))))
}

// metadataMaxAge is how long resource servers may cache the metadata.
const metadataMaxAge = time.Hour

// registerMetadata serves Config.IssuerMetadata at the two well-known
// places resource servers discover an issuer through (RFC 8414 and OpenID
// Connect Discovery), and Config.ProtectedResource at RFC 9728's.
func (r *Router) registerMetadata() error {
	cache := fmt.Sprintf("public, max-age=%d", int(metadataMaxAge/time.Second))
	if m := r.cfg.IssuerMetadata; m != nil {
		for _, place := range []struct{ path, id, standard string }{
			{token.AuthServerMetadataPath, "getAuthorizationServerMetadata", "RFC 8414"},
			{token.OpenIDConfigurationPath, "getOpenIDConfiguration", "OpenID Connect Discovery"},
		} {
			if err := r.add(Get(place.path, func(c *Ctx, _ *struct{}) (*token.Metadata, error) {
				c.Fiber().Set(fiber.HeaderCacheControl, cache)
				return m, nil
			}, Summary("Issuer metadata ("+place.standard+")"),
				Description("Who issues this service's access tokens and where other services find its keys "+
					"(jwks_uri) and endpoints: a resource server configured with AUTH_ISSUER set to issuer reads "+
					"this. Served when PUBLIC_URL is set, which is then the tokens' iss."),
				Tag(systemTag), OperationID(place.id), Header(fiber.HeaderCacheControl, cache))); err != nil {
				return err
			}
		}
	}
	if pr := r.cfg.ProtectedResource; pr != nil {
		return r.add(Get(token.ProtectedResourcePath, func(c *Ctx, _ *struct{}) (*token.ProtectedResource, error) {
			c.Fiber().Set(fiber.HeaderCacheControl, cache)
			return pr, nil
		}, Summary("Protected resource metadata (RFC 9728)"),
			Description("Which issuers' access tokens this service accepts, named by the resource_metadata of its "+
				"Bearer challenges."),
			Tag(systemTag), OperationID("getProtectedResourceMetadata"), Header(fiber.HeaderCacheControl, cache)))
	}
	return nil
}

var errDatabaseUnavailable = problem.Declare(http.StatusServiceUnavailable, "database_unavailable", "Database unavailable")

func (r *Router) healthCheck(c *Ctx, _ *struct{}) (*HealthStatus, error) {
	if r.health == nil {
		return &HealthStatus{Status: "ok", Database: "not configured"}, nil
	}
	ctx, cancel := context.WithTimeout(c.Context(), r.cfg.HealthTimeout)
	defer cancel()
	if err := r.health.CheckHealth(ctx); err != nil {
		r.cfg.Logger.Error("health check failed",
			slog.String("request_id", requestid.From(c.Fiber())),
			slog.String("extension", r.health.Name()),
			slog.Any("error", err))
		return nil, errDatabaseUnavailable.WithDetail("The database did not answer the health check.")
	}
	return &HealthStatus{Status: "ok", Database: "ok"}, nil
}

// registerDocs mounts the docs UI and spec.json under {basePath}/docs, behind
// the Basic-auth guard when docs auth is on.
func (r *Router) registerDocs() error {
	prefix := r.cfg.BasePath + "/docs"
	var guard fiber.Handler
	switch d := r.cfg.APIDocs; {
	case d.UseAuth && len(d.Users) == 0:
		// The guard never fails open.
		return errors.New("router: APIDocs.UseAuth is set but APIDocs.Users is empty (DOCS_AUTH=true needs DOCS_USERS)")
	case d.UseAuth:
		guard = docs.Guard(docs.GuardConfig{Users: d.Users})
	default:
		r.cfg.Logger.Warn(docs.Warning())
	}
	// The docs own everything under their prefix: a controller route there
	// would be shadowed, so it fails start-up.
	for key, name := range r.claimed {
		_, path, _ := strings.Cut(key, " ")
		if path == prefix || strings.HasPrefix(path, prefix+"/") {
			return fmt.Errorf("router: route %s is under %s, which the docs UI and spec.json own", name, prefix)
		}
	}
	if err := r.claim(fiber.MethodGet, prefix, "GET "+prefix+" (docs)"); err != nil {
		return err
	}
	r.docsGuard = guard
	if err := docs.Register(r.app, docs.Config{
		Prefix:  prefix,
		SpecURL: prefix + "/spec.json",
		Title:   r.cfg.APIDocs.Name,
		Guard:   guard,
		// A person logs in or pastes a token; the credentials of other
		// services (clientAuth) stay in the document for them.
		Schemes: []string{openapi.SchemeOAuthLogin, openapi.SchemeBearer},
	}); err != nil {
		return fmt.Errorf("router: docs: %w", err)
	}
	r.app.Get(prefix+"/spec.json", r.spec30.serve)
	r.app.Get(prefix+"/spec-3.1.json", r.spec31.serve)
	return nil
}

// buildSpec renders the document once, at the end of start-up, so a route
// that cannot be documented fails New and requests only send bytes.
func (r *Router) buildSpec() error {
	b, err := r.spec.JSON()
	if err != nil {
		return fmt.Errorf("router: build spec: %w", err)
	}
	b31, err := r.spec.JSON31()
	if err != nil {
		return fmt.Errorf("router: build spec: %w", err)
	}
	r.spec30.set(b)
	r.spec31.set(b31)
	return r.documentBindings()
}

// documentBindings hands every route the schemas the built document gives
// its input, so that requests are checked against what is documented.
func (r *Router) documentBindings() error {
	checker, err := r.spec.Checker()
	if err != nil {
		return fmt.Errorf("router: %w", err)
	}
	for _, rc := range r.routes {
		rc.bind.document(rc.doc, checker)
		if body := rc.doc.RequestBody; body != nil && body.Limit >= int64(r.cfg.BodyLimit) {
			r.cfg.Logger.Debug("a member of the route's body schema has no bound (maxLength, maxItems, a closed object): the server's body limit applies",
				slog.String("route", rc.op.Method+" "+rc.op.Path), slog.Int64("body_limit", body.Limit))
		}
	}
	return nil
}

// specFile is a rendered document with its entity tag.
type specFile struct {
	body []byte
	etag string
}

// set keeps the document b and its entity tag, a digest of b.
func (f *specFile) set(b []byte) {
	sum := sha256.Sum256(b)
	f.body, f.etag = b, `"`+hex.EncodeToString(sum[:16])+`"`
}

// serve sends the cached document with its ETag; a matching If-None-Match
// is a 304. Nothing of the request goes into the document.
func (f *specFile) serve(c *fiber.Ctx) error {
	c.Set(fiber.HeaderETag, f.etag)
	c.Set(fiber.HeaderCacheControl, "no-cache")
	if condition(c, fiber.HeaderIfNoneMatch).MatchWeak(f.etag) {
		return c.SendStatus(fiber.StatusNotModified)
	}
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSONCharsetUTF8)
	return c.Send(f.body)
}
