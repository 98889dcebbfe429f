package openapi

import (
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"

	"github.com/asapjs/fiber-template/platform/problem"
)

// Route declares the operation of one route.
type Route struct {
	// Method is the HTTP method, in any case.
	Method string
	// Path is the Fiber path with the full prefix, e.g. "/api/users/:id".
	Path string
	// Tag groups the operation in documentation UIs. Default: none.
	Tag string
	// Summary and Description describe the operation. Default: none.
	Summary, Description string
	// Deprecation marks the operation deprecated and documents the headers
	// every answer of it carries. Default: nil, not deprecated.
	Deprecation *Deprecation
	// OperationID is the unique id of the operation. Default: derived from
	// the method and the path, e.g. GET /api/users/:id is
	// "getApiUsersById".
	OperationID string
	// Input is nil or a struct type whose fields tagged path or query are
	// parameters and whose field named Body is the request body; AddRoute
	// returns its analysis, each field with its documented schema.
	Input reflect.Type
	// BodyContentTypes are the media types of the request body: MediaJSON,
	// MediaForm or MediaMultipart. Default: MediaJSON.
	BodyContentTypes []string
	// Output is the type of the success body. Default: no body.
	Output reflect.Type
	// Status is the success status. Default: 200.
	Status int
	// Errors are the declared errors the route may answer, each documented
	// as a problem response under its status; the titles of the errors of
	// one status are joined into that response's description.
	Errors []*problem.Error
	// Auth reports whether the route requires a bearer JWT.
	Auth bool
	// OptionalAuth reports whether the route reads a bearer JWT when one is
	// sent and serves anonymous callers too.
	OptionalAuth bool
	// BodyLimit caps the request body, in bytes, below the bound of its
	// schema (see BodyLimit). Default: none.
	BodyLimit int64
	// MaxBodyLimit is the ceiling of every body limit, the server's: a
	// body whose schema has no bound gets it. Default: none.
	MaxBodyLimit int64
	// Encodings are the Content-Encodings the request body may be sent
	// with besides identity. Default: none.
	Encodings []string
	// IfMatch is how a write reads the If-Match header; its 412 and 428
	// come in Errors. Default: IfMatchIgnored.
	IfMatch IfMatch
	// Idempotent reports a route that reads an Idempotency-Key header and
	// replays its first answer to a retry; its 409 and 422 come in Errors.
	Idempotent bool
	// Headers are headers the handler sets on the success answer, by name,
	// each with its description. Default: none.
	Headers map[string]string
	// Roles, when set, are the roles one of which the caller must have: the
	// operation requires them as scopes of the OAuthLogin scheme (and a
	// bearer token otherwise), and its description names them.
	Roles []string
	// ClientAuth reports a route for other services rather than users: it
	// requires the HTTP Basic credentials of a client (SchemeClient), and
	// takes no bearer token. It excludes Auth, OptionalAuth and Roles.
	ClientAuth bool
}

// AddRoute adds the operation of rt. The declaration is checked and its
// types reflected now, so that a bad route fails at start-up:
//
//	op, in, err := reg.AddRoute(openapi.Route{
//		Method:  "GET",
//		Path:    "/api/users/:id",
//		Tag:     "users",
//		Summary: "Get a user",
//		Input:   reflect.TypeFor[GetUserInput](),
//		Output:  reflect.TypeFor[dto.User](),
//		Errors:  []*problem.Error{ErrUserNotFound},
//		Auth:    true,
//	})
//
// It returns the route's model, analysed once: the operation as the
// document holds it (parameters, body schemas and limit), and the input
// whose every field carries the very schema the document gives it. A
// router binds and checks requests by these values (with the Checker, once
// the document is built), so what is documented is what is enforced. A
// failed call changes nothing. After the document is built, AddRoute
// returns ErrBuilt.
func (r *Registry) AddRoute(rt Route) (*Operation, *Input, error) {
	method := strings.ToUpper(rt.Method)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.json != nil {
		return nil, nil, fmt.Errorf("add route %s %s: %w", method, rt.Path, ErrBuilt)
	}
	g := &gen{r: r}
	op, in, err := r.addRoute(g, method, rt)
	if err != nil {
		g.rollback()
		return nil, nil, fmt.Errorf("openapi: route %s %s: %w", method, rt.Path, err)
	}
	return op, in, nil
}

func (r *Registry) addRoute(g *gen, method string, rt Route) (*Operation, *Input, error) {
	if !slices.Contains(methods, method) {
		return nil, nil, fmt.Errorf("method %q has no OpenAPI operation", rt.Method)
	}
	if rt.ClientAuth && (rt.Auth || rt.OptionalAuth || len(rt.Roles) > 0) {
		return nil, nil, errors.New("ClientAuth takes a client's credentials, not a bearer token (Auth, OptionalAuth, Roles)")
	}
	pl, err := r.place(method, rt.Path)
	if err != nil {
		return nil, nil, err
	}
	id, err := r.operationID(method, pl.template, rt.OperationID)
	if err != nil {
		return nil, nil, err
	}
	status := rt.Status
	if status == 0 {
		status = http.StatusOK
	}
	if status < 200 || status > 399 {
		return nil, nil, fmt.Errorf("success status %d, want 2xx or 3xx", status)
	}
	if err := r.checkErrors(rt.Errors); err != nil {
		return nil, nil, err
	}
	op, in, err := g.operation(rt, method, status, pl.params)
	if err != nil {
		return nil, nil, err
	}
	op.OperationID = id
	// Nothing below fails, so the route is added whole or not at all.
	r.commit(method, rt, pl, op)
	return op, in.plan, nil
}

// placement is where a route's operation goes in the document.
type placement struct {
	// template is the path as the document writes it, params its
	// parameters in order; key is the path relative to the server base,
	// shape the path with its parameter names left out.
	template, key, shape string
	params               []string
	// item is the path's item when another method has one; servers are
	// its servers (the root, for a path outside the base).
	item    *PathItem
	servers []Server
}

// place finds where the operation of method and path goes, and refuses a
// route that serves what another one does.
func (r *Registry) place(method, path string) (placement, error) {
	template, params, err := ParsePath(path)
	if err != nil {
		return placement{}, err
	}
	base, root := serverBase(r.cfg.ServerURL)
	key, outside := relativePath(template, base)
	pl := placement{template: template, key: key, shape: pathShape(key), params: params, item: r.paths[key]}
	if outside {
		pl.servers = []Server{{URL: root}}
	}
	if pl.item != nil {
		if *pl.item.slot(method) != nil {
			return placement{}, fmt.Errorf("duplicate route: %s %s is already declared", method, key)
		}
		if len(pl.item.Servers) != len(pl.servers) {
			return placement{}, fmt.Errorf("path %s is both inside and outside the server base path %q", key, base)
		}
	}
	if other, ok := r.shapes[pl.shape]; ok && other != key {
		return placement{}, fmt.Errorf("path %s matches the same requests as %s, with other parameter names", key, other)
	}
	return pl, nil
}

// operationID is the declared id, checked and unused, or the one derived
// from method and template.
func (r *Registry) operationID(method, template, declared string) (string, error) {
	id := declared
	if id == "" {
		id = deriveOperationID(method, template)
	} else if !operationIDRE.MatchString(id) {
		return "", fmt.Errorf("operation id %q: want letters, digits, '.', '_', '~' and '-' only", id)
	}
	if other, ok := r.operationIDs[id]; ok {
		return "", fmt.Errorf("operation id %q is already used by %s; set Route.OperationID", id, other)
	}
	return id, nil
}

// checkErrors refuses a nil declared error, and one whose code another
// declaration gives another status or title.
func (r *Registry) checkErrors(errs []*problem.Error) error {
	for _, e := range errs {
		if e == nil {
			return errors.New("nil declared error")
		}
		if prev, ok := r.errors[e.Code]; ok && (prev.Status != e.Status || prev.Title != e.Title) {
			return fmt.Errorf("declared errors %q (%d %s) and (%d %s) share a code", e.Code, prev.Status, prev.Title, e.Status, e.Title)
		}
	}
	return nil
}

// operation documents the operation of rt: its parameters and body (the
// input analysed with the path's params), its responses and security.
func (g *gen) operation(rt Route, method string, status int, params []string) (*Operation, *input, error) {
	in, err := g.input(rt, params)
	if err != nil {
		return nil, nil, err
	}
	if in.body != nil {
		in.body.Limit = g.r.bodyLimit(rt, in.body)
		in.body.Encodings = slices.Clone(rt.Encodings)
	}
	// A malformed Idempotency-Key is a 400.
	in.declared = in.declared || rt.Idempotent
	sortBy, err := sorting(rt, method, in)
	if err != nil {
		return nil, nil, err
	}
	in.params = append(in.params, sortBy...)
	responses, err := g.responses(rt, status, in)
	if err != nil {
		return nil, nil, err
	}
	in.params = append(in.params, conditional(rt, method, status, responses)...)
	in.params = append(in.params, idempotencyKey(rt, status, responses)...)
	if err := uniqueParams(in.params); err != nil {
		return nil, nil, err
	}
	deprecationHeaders(rt.Deprecation, responses)
	g.r.commonHeaders(rt, responses)
	op := &Operation{
		Summary:     rt.Summary,
		Description: rt.Description,
		Parameters:  in.params,
		RequestBody: in.body,
		Responses:   responses,
		Deprecated:  rt.Deprecation != nil,
		Pagination:  pagination(rt, in),
	}
	if rt.Tag != "" {
		op.Tags = []string{rt.Tag}
	}
	secure(rt, op)
	return op, in, nil
}

// uniqueParams refuses two parameters of one name in one location: an
// input field that is a header the router reads itself (If-Match,
// Idempotency-Key) or a second sort. Header names are compared case
// aside.
func uniqueParams(params []*Parameter) error {
	seen := map[string]bool{}
	for _, p := range params {
		key := p.In + " " + p.Name
		if p.In == string(InHeader) {
			key = strings.ToLower(key)
		}
		if seen[key] {
			return fmt.Errorf("the %s parameter %s is declared twice (an input field and the route's own)", p.In, p.Name)
		}
		seen[key] = true
	}
	return nil
}

// secure sets the security requirements of the operation op of rt, and
// names its roles in its description.
func secure(rt Route, op *Operation) {
	if len(rt.Roles) > 0 {
		op.Security = &[]SecurityRequirement{{SchemeOAuthLogin: slices.Clone(rt.Roles)}, {SchemeBearer: []string{}}}
		note := "Requires the role " + strings.Join(rt.Roles, " or ") + "."
		if op.Description != "" {
			note = op.Description + "\n\n" + note
		}
		op.Description = note
	}
	switch {
	case rt.ClientAuth:
		op.Security = &[]SecurityRequirement{{SchemeClient: []string{}}}
	case rt.OptionalAuth && !rt.Auth && len(rt.Roles) == 0:
		// Anonymous ({}) or with a token, either scheme.
		op.Security = &[]SecurityRequirement{{}, {SchemeOAuthLogin: []string{}}, {SchemeBearer: []string{}}}
	case !rt.Auth && len(rt.Roles) == 0:
		op.Security = &[]SecurityRequirement{}
	}
}

// commit adds the operation op of rt at its placement pl, with what the
// document lists of it: its tag, errors, roles and client scheme.
func (r *Registry) commit(method string, rt Route, pl placement, op *Operation) {
	if pl.item == nil {
		pl.item = &PathItem{Servers: pl.servers}
		r.paths[pl.key] = pl.item
	}
	*pl.item.slot(method) = op
	r.shapes[pl.shape] = pl.key
	r.operationIDs[op.OperationID] = method + " " + rt.Path
	if rt.Tag != "" {
		r.tags[rt.Tag] = true
	}
	for _, e := range rt.Errors {
		r.errors[e.Code] = e
	}
	for _, role := range rt.Roles {
		r.roles[role] = true
	}
	r.clients = r.clients || rt.ClientAuth
}

// bodyLimit is the limit of the request body rb of rt: the smallest of its
// schema's bound, the declared limit and the ceiling (0 when none applies).
func (r *Registry) bodyLimit(rt Route, rb *RequestBody) int64 {
	limit := rt.MaxBodyLimit
	lower := func(n int64) {
		if n > 0 && (limit == 0 || n < limit) {
			limit = n
		}
	}
	if n, ok := BodyLimit(rb, r.schemas); ok {
		lower(n)
	}
	lower(rt.BodyLimit)
	return limit
}
