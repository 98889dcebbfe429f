package openapi

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
)

// refPrefix is what every component schema reference starts with.
const refPrefix = "#/components/schemas/"

// componentNameRE is the pattern OpenAPI 3.0 requires of component names.
var componentNameRE = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)

// Schema is an OpenAPI 3.0 schema object. Zero fields are left out of the
// JSON, except that the numeric bounds are pointers and Default, Example and
// the Enum values are interfaces, so that a bound of 0 or a default of 0 or
// false is still written.
type Schema struct {
	// Ref references a component schema; OpenAPI 3.0 ignores every sibling
	// of a $ref, so a Schema with a Ref should have nothing else.
	Ref         string `json:"$ref,omitempty"`
	Type        string `json:"type,omitempty"`        // the JSON type: "string", "number", "integer", "boolean", "array" or "object"; none for any
	Format      string `json:"format,omitempty"`      // a refinement of Type: "int64", "date-time", "email", "uuid", …
	Title       string `json:"title,omitempty"`       // a short title of the value, for a reader
	Description string `json:"description,omitempty"` // what the value means; CommonMark
	Nullable    bool   `json:"nullable,omitempty"`    // whether null is allowed as well (OpenAPI 3.0 has no type null)

	AllOf []*Schema `json:"allOf,omitempty"` // the value must be valid against every one of these schemas
	OneOf []*Schema `json:"oneOf,omitempty"` // the value must be valid against exactly one of these schemas
	AnyOf []*Schema `json:"anyOf,omitempty"` // the value must be valid against at least one of these schemas

	Properties map[string]*Schema `json:"properties,omitempty"` // the schemas of an object's members, keyed by member name
	Required   []string           `json:"required,omitempty"`   // the members an object must have
	// AdditionalProperties is the schema of the values of a map; an empty
	// Schema allows any value.
	AdditionalProperties *Schema `json:"additionalProperties,omitempty"`
	Items                *Schema `json:"items,omitempty"` // the schema of each item of an array

	Enum    []any `json:"enum,omitempty"`    // the only values allowed
	Default any   `json:"default,omitempty"` // the value the server assumes when none is sent
	Example any   `json:"example,omitempty"` // an example value, for a reader

	Minimum          *float64 `json:"minimum,omitempty"`          // the smallest number allowed; see ExclusiveMinimum
	ExclusiveMinimum bool     `json:"exclusiveMinimum,omitempty"` // whether Minimum itself is not allowed
	Maximum          *float64 `json:"maximum,omitempty"`          // the largest number allowed; see ExclusiveMaximum
	ExclusiveMaximum bool     `json:"exclusiveMaximum,omitempty"` // whether Maximum itself is not allowed
	MultipleOf       *float64 `json:"multipleOf,omitempty"`       // a number must divide by this with no remainder
	MinLength        *int     `json:"minLength,omitempty"`        // the fewest characters a string may have
	MaxLength        *int     `json:"maxLength,omitempty"`        // the most characters a string may have
	Pattern          string   `json:"pattern,omitempty"`          // a regular expression (ECMA 262) a string must match; unanchored
	MinItems         *int     `json:"minItems,omitempty"`         // the fewest items an array may have
	MaxItems         *int     `json:"maxItems,omitempty"`         // the most items an array may have
	UniqueItems      bool     `json:"uniqueItems,omitempty"`      // whether an array's items must all differ
	MinProperties    *int     `json:"minProperties,omitempty"`    // the fewest members an object may have
	MaxProperties    *int     `json:"maxProperties,omitempty"`    // the most members an object may have

	ReadOnly   bool `json:"readOnly,omitempty"`   // the member is sent in responses only; a request should not send it
	WriteOnly  bool `json:"writeOnly,omitempty"`  // the member is sent in requests only; a response does not have it
	Deprecated bool `json:"deprecated,omitempty"` // the value is deprecated; clients should stop using it

	// Closed says that the object has no member beyond Properties; it is
	// written additionalProperties: false (see MarshalJSON).
	Closed bool `json:"-"`
}

// Ref returns the reference of a component schema name:
//
//	openapi.Ref("User") // "#/components/schemas/User"
func Ref(name string) string { return refPrefix + name }

// NameFromRef returns the component schema name of a reference made by Ref.
// Anything else, such as a reference to another kind of component or to
// another document, is an error.
func NameFromRef(ref string) (string, error) {
	name, ok := strings.CutPrefix(ref, refPrefix)
	if !ok || !componentNameRE.MatchString(name) {
		return "", fmt.Errorf("openapi: %q is not a component schema reference", ref)
	}
	return name, nil
}

// subschemas are the schemas directly inside s (nil ones included), its
// properties by name.
func (s *Schema) subschemas() []*Schema {
	subs := slices.Concat(s.AllOf, s.OneOf, s.AnyOf, []*Schema{s.Items, s.AdditionalProperties})
	for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
		subs = append(subs, s.Properties[name])
	}
	return subs
}

// walk calls fn on s and then on every schema inside it, depth first;
// nil schemas are skipped. It does not follow references.
func (s *Schema) walk(fn func(*Schema)) {
	if s == nil {
		return
	}
	fn(s)
	for _, sub := range s.subschemas() {
		sub.walk(fn)
	}
}

// refTo returns a schema that only references the component name.
func refTo(name string) *Schema { return &Schema{Ref: Ref(name)} }

// clone returns a deep copy of s, so that a schema handed in or out of a
// Registry cannot change what the Registry holds.
func (s *Schema) clone() *Schema {
	if s == nil {
		return nil
	}
	c := *s
	c.AllOf = cloneList(s.AllOf)
	c.OneOf = cloneList(s.OneOf)
	c.AnyOf = cloneList(s.AnyOf)
	if s.Properties != nil {
		c.Properties = make(map[string]*Schema, len(s.Properties))
		for k, v := range s.Properties {
			c.Properties[k] = v.clone()
		}
	}
	if s.Required != nil {
		c.Required = append([]string(nil), s.Required...)
	}
	c.AdditionalProperties = s.AdditionalProperties.clone()
	c.Items = s.Items.clone()
	if s.Enum != nil {
		c.Enum = make([]any, len(s.Enum))
		for i, v := range s.Enum {
			c.Enum[i] = cloneValue(v)
		}
	}
	c.Default = cloneValue(s.Default)
	c.Example = cloneValue(s.Example)
	c.Minimum = clonePtr(s.Minimum)
	c.Maximum = clonePtr(s.Maximum)
	c.MultipleOf = clonePtr(s.MultipleOf)
	c.MinLength = clonePtr(s.MinLength)
	c.MaxLength = clonePtr(s.MaxLength)
	c.MinItems = clonePtr(s.MinItems)
	c.MaxItems = clonePtr(s.MaxItems)
	c.MinProperties = clonePtr(s.MinProperties)
	c.MaxProperties = clonePtr(s.MaxProperties)
	return &c
}

func cloneList(l []*Schema) []*Schema {
	if l == nil {
		return nil
	}
	c := make([]*Schema, len(l))
	for i, s := range l {
		c[i] = s.clone()
	}
	return c
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// cloneValue deep-copies the JSON-like values of enum, default and example.
func cloneValue(v any) any {
	switch v := v.(type) {
	case []any:
		c := make([]any, len(v))
		for i, e := range v {
			c[i] = cloneValue(e)
		}
		return c
	case map[string]any:
		c := make(map[string]any, len(v))
		for k, e := range v {
			c[k] = cloneValue(e)
		}
		return c
	default:
		return v
	}
}
