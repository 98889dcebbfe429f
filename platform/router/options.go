package router

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/openapi"
	"github.com/asapjs/fiber-template/platform/problem"
)

// Media types a route can accept its body as.
const (
	// MediaJSON is the default body media type.
	MediaJSON = openapi.MediaJSON
	// MediaForm is a URL-encoded form body.
	MediaForm = openapi.MediaForm
	// MediaMultipart is a multipart form body, the one that carries files.
	MediaMultipart = openapi.MediaMultipart
	// MediaMergePatch is a JSON merge patch (RFC 7396), the media type of
	// a MergePatch body.
	MediaMergePatch = openapi.MediaMergePatch
)

// Option sets part of a route's Operation.
type Option func(*Operation)

// Header documents a header that the route's handler sets on its success
// answer, with its description: the router documents the headers it sets
// itself (ETag, Link, Location and the like), not what a handler adds.
func Header(name, description string) Option {
	return func(op *Operation) {
		if op.Headers == nil {
			op.Headers = map[string]string{}
		}
		op.Headers[name] = description
	}
}

// Summary sets the one-line summary of the route (the operation's summary
// in the document).
func Summary(s string) Option { return func(op *Operation) { op.Summary = s } }

// Description sets the detailed description of the route.
func Description(s string) Option { return func(op *Operation) { op.Description = s } }

// Deprecated marks the route deprecated: the document says so (deprecated:
// true, with the headers below on every response), and every answer of the
// route, errors included, carries Deprecation: @<since> (RFC 9745), Sunset:
// <sunset> (RFC 8594) when sunset is not zero, and Link: <link>;
// rel="deprecation" when link is not empty. since is required; a sunset
// must come after it; link must be an absolute http(s) URL or a path.
//
//	router.Get("/legacy", h, router.Deprecated(
//		time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
//		time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC),
//		"https://example.com/changes#legacy"))
func Deprecated(since, sunset time.Time, link string) Option {
	return func(op *Operation) {
		op.Deprecation = &openapi.Deprecation{Since: since, Sunset: sunset, Link: link}
	}
}

// Auth requires a valid bearer access token, verified with
// Config.TokenKeys (Ed25519 or HS256) and Config.TokenChecker; the handler
// reads its claims with Ctx.Claims.
func Auth() Option { return func(op *Operation) { op.Auth = true } }

// OptionalAuth reads a bearer token when the request sends one: a valid
// token gives the handler its claims (Ctx.Caller), an invalid one is a 401,
// and a request without one reaches the handler anonymously. It suits
// public routes that do more for some callers, such as a sign-up where
// admins may choose the role.
func OptionalAuth() Option { return func(op *Operation) { op.OptionalAuth = true } }

// Clients checks the credentials of a client, another service, calling a
// route declared with ClientAuth; *basicauth.Accounts is one.
type Clients interface {
	// Allow reports whether id and secret are a client's.
	Allow(id, secret string) bool
}

// ClientAuth makes a route for other services rather than users: it
// requires the HTTP Basic credentials of one of clients (client_secret_basic,
// RFC 6749 section 2.3.1), checked before the input is read, and takes no
// bearer token. Any other request is a 401 with a Basic challenge. The
// document lists the route under the clientAuth scheme.
//
//	router.Post("/introspect", a.introspect, router.ClientAuth(basicauth.New(clients)))
func ClientAuth(clients Clients) Option {
	return func(op *Operation) { op.Clients, op.ClientAuth = clients, clients != nil }
}

// Roles requires a valid bearer token (as Auth does) whose role is one of
// roles; any other caller gets a 403 problem before its input is read. The
// document lists the roles as OAuthLogin scopes and the 403. Ownership
// rules (the caller's own record) stay in the handler: see Ctx.Caller.
//
//	router.Get("/", users.list, router.Roles("admin"))
func Roles(roles ...string) Option {
	return func(op *Operation) {
		op.Auth = true
		op.Roles = append(op.Roles, roles...)
	}
}

// Status sets the success status: 200 by default, 201 for a create, 204 for
// no content.
func Status(code int) Option { return func(op *Operation) { op.Status = code } }

// Errors lists the declared errors the handler may return, each documented
// under its status in the spec.
func Errors(errs ...*problem.Error) Option {
	return func(op *Operation) { op.Errors = append(op.Errors, errs...) }
}

// BodyContentType sets the media types the body is accepted as: MediaJSON
// (the default), MediaForm or MediaMultipart. Others are answered with 415.
// A MergePatch body is always MediaMergePatch.
func BodyContentType(types ...string) Option {
	return func(op *Operation) { op.BodyContentTypes = append(op.BodyContentTypes, types...) }
}

// OperationID sets the operationId, the method name generated clients use.
// By default it is derived from the method and the path.
func OperationID(id string) Option { return func(op *Operation) { op.OperationID = id } }

// Tag overrides the controller's documentation tag for one route.
func Tag(tag string) Option { return func(op *Operation) { op.Tag = tag } }

// Use runs handlers on this route only, in order, once the route matched
// and before its authentication and input are read: whatever spelling of
// the path reached the route, they run. A handler ends the request by
// returning an error (answered as a problem) or goes on with c.Next().
//
//	router.Post("/login", a.login, router.Use(authLimit))
func Use(handlers ...fiber.Handler) Option {
	return func(op *Operation) { op.Middleware = append(op.Middleware, handlers...) }
}

// Guard runs h on this route as Use does, and declares the errors h may
// answer with on the route's document: a middleware that can fail says
// what it answers where it is made, once, rather than on every route it
// guards (Config.MiddlewareErrors is the same for the middleware of every
// route).
//
//	router.Post("/login", a.login, router.Guard(limit.Handler(), limit.Errors()...))
func Guard(h fiber.Handler, errs ...*problem.Error) Option {
	return func(op *Operation) {
		op.Middleware = append(op.Middleware, h)
		op.Errors = append(op.Errors, errs...)
	}
}

// BodyLimit caps the route's request body at n bytes. The effective limit
// is the smallest of n, the largest body the route's schema can accept and
// Config.BodyLimit; a larger body is a 413 before it is read.
func BodyLimit(n int) Option { return func(op *Operation) { op.BodyLimit = int64(n) } }

// Decompress accepts a request body sent with Content-Encoding: gzip (one
// coding, once). It is decompressed as it is read and the route's body
// limit counts the decompressed bytes. Without it, a body with any
// Content-Encoding but identity is a 415.
func Decompress() Option { return func(op *Operation) { op.Encodings = []string{"gzip"} } }

// check refuses what no route may declare: a success status that is not
// 2xx, a nil declared error or middleware, a negative body limit, a
// deprecation without its date or with a sunset before it.
func (op *Operation) check() error {
	if op.Status < 200 || op.Status > 299 {
		return fmt.Errorf("success status %d is not 2xx", op.Status)
	}
	for _, e := range op.Errors {
		if e == nil {
			return fmt.Errorf("nil declared error")
		}
	}
	for _, m := range op.Middleware {
		if m == nil {
			return fmt.Errorf("nil route middleware")
		}
	}
	if op.BodyLimit < 0 {
		return fmt.Errorf("negative body limit %d", op.BodyLimit)
	}
	if d := op.Deprecation; d != nil {
		return checkDeprecation(d)
	}
	return nil
}

// checkDeprecation refuses a deprecation without a date, a sunset before
// it and a link that is not a URL.
func checkDeprecation(d *openapi.Deprecation) error {
	if d.Since.IsZero() {
		return fmt.Errorf("deprecated without a date")
	}
	if !d.Sunset.IsZero() && !d.Sunset.After(d.Since) {
		return fmt.Errorf("sunset %s is not after the deprecation %s", d.Sunset.Format(time.RFC3339), d.Since.Format(time.RFC3339))
	}
	if d.Link == "" {
		return nil
	}
	u, err := url.Parse(d.Link)
	switch {
	case err != nil:
		return fmt.Errorf("deprecation link: %w", err)
	case strings.ContainsAny(d.Link, "<>\" \t\r\n"):
		return fmt.Errorf("deprecation link %q has characters a Link header cannot carry", d.Link)
	case u.IsAbs() && u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("deprecation link %q is not http(s)", d.Link)
	case !u.IsAbs() && !strings.HasPrefix(d.Link, "/"):
		return fmt.Errorf("deprecation link %q is neither an absolute URL nor a path", d.Link)
	}
	return nil
}

// deprecationHeaders sets the headers of deprecation d on the answer,
// before the rest of the route runs, so errors carry them too.
func deprecationHeaders(d *openapi.Deprecation) fiber.Handler {
	since, sunset, link := d.DeprecationValue(), d.SunsetValue(), d.LinkValue()
	return func(c *fiber.Ctx) error {
		h := &c.Response().Header
		h.Set("Deprecation", since)
		if sunset != "" {
			h.Set("Sunset", sunset)
		}
		if link != "" {
			h.Set(fiber.HeaderLink, link)
		}
		return c.Next()
	}
}
