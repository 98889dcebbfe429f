package openapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// applyTags applies the documentation tags of a struct field to its schema
// s, a shallow copy that may be changed, and reports whether the field is
// required. The tags are:
//
//	doc:"..."        description
//	format:"..."     format, overriding the one of the Go type
//	example:"..."    example, typed likewise
//	default:"..."    default, typed likewise
//	minimum:"0"      minimum of a number
//	maximum:"9"      maximum of a number
//	pattern:"..."    pattern of a string
//	validate:"..."   go-playground/validator rules, see applyValidate
//
// Explicit tags are applied after validate, so they win over it.
func applyTags(s *Schema, tag reflect.StructTag) (*Schema, bool, error) {
	if _, ok := tag.Lookup("enum"); ok {
		// One way to state allowed values: the rule that enforces them.
		return nil, false, errors.New(`enum tag: state allowed values with validate:"oneof=a b" (the document's enum comes from it)`)
	}
	required, err := applyValidate(s, tag.Get("validate"))
	if err != nil {
		return nil, false, err
	}
	if required {
		s = requiredSchema(s)
	}
	if s.Ref != "" {
		// A reference has no siblings in OpenAPI 3.0, so a description
		// needs an allOf around it; the other tags do not apply to objects.
		if doc := tag.Get("doc"); doc != "" {
			s = &Schema{AllOf: []*Schema{{Ref: s.Ref}}, Description: doc}
		}
		return s, required, nil
	}
	if v, ok := tag.Lookup("doc"); ok {
		s.Description = v
	}
	if v, ok := tag.Lookup("format"); ok {
		s.Format = v
	}
	for _, name := range []string{"example", "default"} {
		v, ok := tag.Lookup(name)
		if !ok {
			continue
		}
		val, err := parseValue(v, s)
		if err != nil {
			return nil, false, fmt.Errorf("%s tag: %w", name, err)
		}
		if name == "example" {
			s.Example = val
		} else {
			s.Default = val
		}
	}
	for _, name := range []string{"minimum", "maximum"} {
		v, ok := tag.Lookup(name)
		if !ok {
			continue
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return nil, false, fmt.Errorf("%s tag: %q is not a number", name, v)
		}
		if name == "minimum" {
			s.Minimum = &f
		} else {
			s.Maximum = &f
		}
	}
	if v, ok := tag.Lookup("pattern"); ok {
		s.Pattern = v
	}
	return s, required, nil
}

// requiredSchema is s for a required field: a string is not empty, and a
// pointer's schema is no longer nullable, since the router answers null for
// a required field with a 422 (a nullable reference unwraps to the plain
// reference).
func requiredSchema(s *Schema) *Schema {
	if s.Nullable && len(s.AllOf) == 1 && s.AllOf[0].Ref != "" && len(s.Properties) == 0 {
		return &Schema{Ref: s.AllOf[0].Ref}
	}
	s.Nullable = false
	// An enum or a checked format already refuses the empty string.
	if s.Type == "string" && s.MinLength == nil && s.Format != "binary" && len(s.Enum) == 0 && !checkedFormats[s.Format] {
		s.MinLength = ptr(1)
	}
	return s
}

// enumTarget returns the schema an enum applies to: the items of an array
// (copied, since s shares them with the cache), s itself otherwise.
func enumTarget(s *Schema) *Schema {
	if s.Type == "array" && s.Items != nil {
		items := *s.Items
		s.Items = &items
		return &items
	}
	return s
}

// parseList parses each raw value for the schema s.
func parseList(raws []string, s *Schema) ([]any, error) {
	vals := make([]any, 0, len(raws))
	for _, raw := range raws {
		v, err := parseValue(strings.TrimSpace(raw), s)
		if err != nil {
			return nil, err
		}
		vals = append(vals, v)
	}
	return vals, nil
}

// parseValue parses a tag value as a value of the schema s, so that an
// integer field's default is the number 0 and not the string "0". Arrays
// take a JSON array or comma-separated items; objects take JSON.
func parseValue(raw string, s *Schema) (any, error) {
	switch s.Type {
	case "string":
		return raw, nil
	case "boolean":
		b, err := strconv.ParseBool(raw)
		if err != nil {
			return nil, fmt.Errorf("%q is not a boolean", raw)
		}
		return b, nil
	case "integer":
		if n, err := strconv.ParseInt(raw, 10, 64); err == nil {
			return n, nil
		}
		if n, err := strconv.ParseUint(raw, 10, 64); err == nil {
			return n, nil
		}
		return nil, fmt.Errorf("%q is not an integer", raw)
	case "number":
		f, err := strconv.ParseFloat(raw, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", raw)
		}
		return f, nil
	case "array":
		if strings.HasPrefix(strings.TrimSpace(raw), "[") {
			return parseJSON(raw)
		}
		items := s.Items
		if items == nil {
			items = &Schema{Type: "string"}
		}
		if raw == "" {
			return []any{}, nil
		}
		return parseList(strings.Split(raw, ","), items)
	case "object":
		return parseJSON(raw)
	default:
		// Any value: JSON when it parses, the text otherwise.
		if v, err := parseJSON(raw); err == nil {
			return v, nil
		}
		return raw, nil
	}
}

// parseJSON decodes raw keeping numbers exact.
func parseJSON(raw string) (any, error) {
	dec := json.NewDecoder(bytes.NewReader([]byte(raw)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("%q is not valid JSON: %w", raw, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%q has data after the JSON value", raw)
	}
	return v, nil
}
