package openapi

import (
	"encoding"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"reflect"
	"time"
)

var (
	timeType          = reflect.TypeFor[time.Time]()
	fileHeaderType    = reflect.TypeFor[multipart.FileHeader]()
	rawMessageType    = reflect.TypeFor[json.RawMessage]()
	jsonMarshalerType = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// gen generates schemas into a Registry and remembers what it added, so
// that a call that fails part way leaves the Registry as it found it.
// It is used with the Registry's mutex held.
type gen struct {
	r     *Registry
	names []string
	types []reflect.Type
	forms []reflect.Type
}

// rollback removes everything g added.
func (g *gen) rollback() {
	for _, n := range g.names {
		delete(g.r.schemas, n)
		delete(g.r.owners, n)
	}
	for _, t := range g.types {
		delete(g.r.types, t)
	}
	for _, t := range g.forms {
		delete(g.r.forms, t)
	}
	g.names, g.types, g.forms = nil, nil, nil
}

// schemaOf returns the schema of t: a reference for a named struct, which is
// registered as a component on first use, and an inline schema otherwise.
// The result is a shallow copy: its top-level fields may be changed, nothing
// it points to may.
func (g *gen) schemaOf(t reflect.Type) (*Schema, error) {
	if s, ok := g.r.types[t]; ok {
		c := *s
		return &c, nil
	}
	if t.Kind() == reflect.Struct && t.Name() != "" && !isStringLike(t) && t != timeType && t != fileHeaderType {
		return g.component(t)
	}
	s, err := g.inline(t)
	if err != nil {
		return nil, err
	}
	g.r.types[t] = s
	g.types = append(g.types, t)
	c := *s
	return &c, nil
}

// component registers the named struct t under its component name and
// returns a reference to it.
func (g *gen) component(t reflect.Type) (*Schema, error) {
	name := componentName(t)
	if err := g.r.claim(name, t); err != nil {
		return nil, err
	}
	ref := refTo(name)
	// Registered before its properties so that a recursive type refers to
	// itself instead of recursing forever.
	g.r.types[t] = ref
	g.r.owners[name] = t
	g.types = append(g.types, t)
	g.names = append(g.names, name)
	obj, err := g.object(t)
	if err != nil {
		return nil, err
	}
	g.r.schemas[name] = obj
	c := *ref
	return &c, nil
}

// isStringLike reports whether t marshals as a JSON string through
// encoding.TextMarshaler (uuid.UUID, net.IP) rather than by its kind.
func isStringLike(t reflect.Type) bool {
	if t == timeType || t.Kind() == reflect.Interface {
		return false
	}
	pt := reflect.PointerTo(t)
	if t.Implements(jsonMarshalerType) || pt.Implements(jsonMarshalerType) {
		return false
	}
	return t.Implements(textMarshalerType) || pt.Implements(textMarshalerType)
}

// inline builds the schema of a type that is not a component.
func (g *gen) inline(t reflect.Type) (*Schema, error) {
	switch {
	case t == timeType:
		return &Schema{Type: "string", Format: "date-time"}, nil
	case t == fileHeaderType:
		return &Schema{Type: "string", Format: "binary"}, nil
	case t == rawMessageType:
		return &Schema{}, nil
	case isStringLike(t):
		return &Schema{Type: "string"}, nil
	}
	switch t.Kind() {
	case reflect.String:
		return &Schema{Type: "string"}, nil
	case reflect.Bool:
		return &Schema{Type: "boolean"}, nil
	case reflect.Int8, reflect.Int16, reflect.Int32:
		return &Schema{Type: "integer", Format: "int32"}, nil
	case reflect.Uint8, reflect.Uint16:
		return &Schema{Type: "integer", Format: "int32", Minimum: ptr(0.0)}, nil
	case reflect.Int, reflect.Int64:
		return &Schema{Type: "integer", Format: "int64"}, nil
	case reflect.Uint32:
		return &Schema{Type: "integer", Format: "int64", Minimum: ptr(0.0)}, nil
	case reflect.Uint, reflect.Uint64, reflect.Uintptr:
		// Past the int64 range, which OpenAPI's formats end at.
		return &Schema{Type: "integer", Minimum: ptr(0.0)}, nil
	case reflect.Float32:
		return &Schema{Type: "number", Format: "float"}, nil
	case reflect.Float64:
		return &Schema{Type: "number", Format: "double"}, nil
	case reflect.Interface:
		return &Schema{}, nil
	case reflect.Pointer:
		return g.pointer(t)
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 && !isStringLike(t.Elem()) {
			return &Schema{Type: "string", Format: "byte"}, nil
		}
		items, err := g.schemaOf(t.Elem())
		if err != nil {
			return nil, err
		}
		return &Schema{Type: "array", Items: items}, nil
	case reflect.Array:
		items, err := g.schemaOf(t.Elem())
		if err != nil {
			return nil, err
		}
		return &Schema{Type: "array", Items: items, MinItems: ptr(t.Len()), MaxItems: ptr(t.Len())}, nil
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return nil, fmt.Errorf("unsupported map key type %s in %s: JSON object keys are strings", t.Key(), t)
		}
		values, err := g.schemaOf(t.Elem())
		if err != nil {
			return nil, err
		}
		return &Schema{Type: "object", AdditionalProperties: values}, nil
	case reflect.Struct:
		return g.object(t)
	default:
		return nil, fmt.Errorf("unsupported type %s of kind %s", t, t.Kind())
	}
}

// pointer builds the schema of a pointer type: the schema of what it points
// to, nullable. A reference cannot have siblings in OpenAPI 3.0, so a
// nullable reference is an allOf with the type the components all have.
func (g *gen) pointer(t reflect.Type) (*Schema, error) {
	elem := t.Elem()
	s, err := g.schemaOf(elem)
	if err != nil {
		return nil, err
	}
	switch {
	case elem == fileHeaderType:
		return s, nil
	case s.Ref != "":
		return &Schema{Type: "object", Nullable: true, AllOf: []*Schema{s}}, nil
	case s.Type == "":
		// Empty schemas (any value) already allow null, and nullable
		// needs a type beside it.
		return s, nil
	}
	s.Nullable = true
	return s, nil
}

// object builds the inline object schema of struct type t, its properties
// named by their json names.
func (g *gen) object(t reflect.Type) (*Schema, error) {
	fields, err := structFields(t)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t, err)
	}
	obj := &Schema{Type: "object"}
	for _, f := range fields {
		fs, required, err := g.fieldSchema(f.sf)
		if err != nil {
			return nil, fmt.Errorf("field %s.%s: %w", f.owner, f.sf.Name, err)
		}
		if obj.Properties == nil {
			obj.Properties = map[string]*Schema{}
		}
		obj.Properties[f.name] = fs
		if required {
			obj.Required = append(obj.Required, f.name)
		}
	}
	return obj, nil
}

// fieldSchema returns the schema of a struct field with its tags applied,
// and whether the field is required.
func (g *gen) fieldSchema(sf reflect.StructField) (*Schema, bool, error) {
	s, err := g.schemaOf(sf.Type)
	if err != nil {
		return nil, false, err
	}
	return applyTags(s, sf.Tag)
}

func ptr[T any](v T) *T { return &v }
