package openapi

import (
	"github.com/asapjs/fiber-template/platform/problem"

	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sync"
)

// ErrBuilt is returned by the calls that would change a document that has
// already been built by JSON or Document.
var ErrBuilt = errors.New("openapi: the document is already built")

// Registry collects the operations and component schemas of one API and
// builds its document. Declarations are checked when they are added, so a
// bad route fails at start-up; the document is built once, on the first call
// to JSON or Document, and cached. A Registry is safe for concurrent use.
type Registry struct {
	cfg Config

	mu sync.Mutex
	// schemas are the component schemas by name; owners holds the Go type
	// of each generated one, and no entry for raw ones from AddSchema.
	schemas map[string]*Schema
	owners  map[string]reflect.Type
	// types caches the schema of each Go type reflected so far: a
	// reference for a component, the inline schema otherwise. forms does
	// the same for the inline objects of form bodies.
	types map[reflect.Type]*Schema
	forms map[reflect.Type]*Schema

	paths map[string]*PathItem
	// shapes maps each path with its parameter names removed to the path,
	// to reject paths that differ only in parameter names.
	shapes map[string]string
	// operationIDs maps each operation id to the route that has it.
	operationIDs map[string]string
	tags         map[string]bool
	// errors are the declared errors of every route by code, for the
	// ProblemCode enum.
	errors map[string]*problem.Error
	// roles are the roles routes require, the OAuthLogin scopes.
	roles map[string]bool
	// clients is set once a route takes a client's credentials: the
	// document then has SchemeClient.
	clients bool

	json []byte
	// json31 is the document as OpenAPI 3.1, rendered from json.
	json31 []byte
}

// New returns an empty Registry with the settings of cfg; see Config for
// the defaults of its zero fields.
func New(cfg Config) *Registry {
	return &Registry{
		cfg:          configDefault(cfg),
		schemas:      map[string]*Schema{},
		owners:       map[string]reflect.Type{},
		types:        map[reflect.Type]*Schema{},
		forms:        map[reflect.Type]*Schema{},
		paths:        map[string]*PathItem{},
		shapes:       map[string]string{},
		operationIDs: map[string]string{},
		tags:         map[string]bool{},
		errors:       map[string]*problem.Error{},
		roles:        map[string]bool{},
	}
}

// claim checks that the component name is free for the Go type t: unused,
// or already used by t itself.
func (r *Registry) claim(name string, t reflect.Type) error {
	if owner, ok := r.owners[name]; ok {
		if owner == t {
			return nil
		}
		return fmt.Errorf("openapi: schema name %q used by both %s and %s", name, qualifiedName(owner), qualifiedName(t))
	}
	if _, ok := r.schemas[name]; ok {
		return fmt.Errorf("openapi: schema name %q used by both a schema added by AddSchema and %s", name, qualifiedName(t))
	}
	return nil
}

// AddSchema adds the component schema s under name, for schemas that no Go
// type describes. Adding a schema equal to the one already under name does
// nothing; adding a different one is an error, as is adding after the
// document is built (ErrBuilt).
func (r *Registry) AddSchema(name string, s *Schema) error {
	if !componentNameRE.MatchString(name) {
		return fmt.Errorf("openapi: schema name %q: want letters, digits, '.', '-' and '_' only", name)
	}
	if s == nil {
		return fmt.Errorf("openapi: schema %q is nil", name)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.json != nil {
		return fmt.Errorf("add schema %q: %w", name, ErrBuilt)
	}
	if old, ok := r.schemas[name]; ok {
		same, err := equalSchemas(old, s)
		if err != nil {
			return fmt.Errorf("openapi: schema %q: %w", name, err)
		}
		if same {
			return nil
		}
		if owner, ok := r.owners[name]; ok {
			return fmt.Errorf("openapi: schema name %q used by both %s and a different schema added by AddSchema", name, qualifiedName(owner))
		}
		return fmt.Errorf("openapi: schema name %q added twice with different schemas", name)
	}
	if _, err := json.Marshal(s); err != nil {
		return fmt.Errorf("openapi: schema %q: %w", name, err)
	}
	r.schemas[name] = s.clone()
	return nil
}

// equalSchemas reports whether a and b make the same JSON.
func equalSchemas(a, b *Schema) (bool, error) {
	ja, err := json.Marshal(a)
	if err != nil {
		return false, err
	}
	jb, err := json.Marshal(b)
	if err != nil {
		return false, err
	}
	return bytes.Equal(ja, jb), nil
}

// SchemaFor returns the schema of the Go type t. A named struct type is
// registered as a component (with the named structs it uses) and a
// reference to it is returned:
//
//	s, err := reg.SchemaFor(reflect.TypeFor[dto.User]()) // {"$ref": "#/components/schemas/User"}
//
// Each type is reflected once; later calls answer from the cache. The
// returned schema is the caller's own. After the document is built, a type
// that would need a new component is an error (ErrBuilt).
func (r *Registry) SchemaFor(t reflect.Type) (*Schema, error) {
	if t == nil {
		return nil, errors.New("openapi: schema of a nil type")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	g := &gen{r: r}
	s, err := g.schemaOf(t)
	if err != nil {
		g.rollback()
		return nil, fmt.Errorf("openapi: schema of %s: %w", t, err)
	}
	if r.json != nil && len(g.names) > 0 {
		g.rollback()
		return nil, fmt.Errorf("schema of %s: %w", t, ErrBuilt)
	}
	return s.clone(), nil
}

// JSON returns the document as JSON. It is built on the first call, checked
// (every $ref must resolve) and cached; later calls return the same bytes,
// which the caller must not modify. After a successful build the Registry
// accepts no more routes or schemas.
func (r *Registry) JSON() ([]byte, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.json != nil {
		return r.json, nil
	}
	doc := r.document()
	if err := checkRefs(doc); err != nil {
		return nil, err
	}
	b, err := encodeDocument(doc)
	if err != nil {
		return nil, fmt.Errorf("openapi: encode document: %w", err)
	}
	r.json = b
	return r.json, nil
}

// encodeDocument encodes a document as the registry serves it: without
// HTML escaping and without a trailing newline.
func encodeDocument(doc any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// decodeDocument decodes an encoded document into doc, numbers kept as
// json.Number so that none loses precision.
func decodeDocument(b []byte, doc any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	return dec.Decode(doc)
}

// Document returns the document in its typed form, built as JSON builds it.
// Each call returns a new copy that the caller may change freely.
func (r *Registry) Document() (*Document, error) {
	b, err := r.JSON()
	if err != nil {
		return nil, err
	}
	var doc Document
	if err := decodeDocument(b, &doc); err != nil {
		return nil, fmt.Errorf("openapi: decode document: %w", err)
	}
	return &doc, nil
}

// Checker returns a Checker of the built document's schemas, the very
// values AddRoute returned and JSON rendered, so what a router checks is
// what the document says. It builds the document first when JSON has not.
func (r *Registry) Checker() (*Checker, error) {
	if _, err := r.JSON(); err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return NewChecker(r.document())
}
