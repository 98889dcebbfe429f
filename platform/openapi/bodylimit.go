package openapi

import (
	"strings"
	"unicode/utf8"
)

// A route's body limit is derived from its schema: the most bytes a valid
// body can take. Every string of a valid body has a maxLength (or an enum
// or a format of bounded length), every array a maxItems, and every object
// a closed set of members, each at most once (duplicate members are
// refused); the bound counts each character at its worst JSON escape or
// percent-encoding, and allows for insignificant whitespace (see
// bodyLimitOf). A schema with an unbounded member has no bound.

// Worst-case encoded sizes, in bytes.
const (
	// jsonCharMax is one character as a JSON escape: a surrogate pair of
	// \uXXXX escapes.
	jsonCharMax = 12
	// formCharMax is one character percent-encoded: four UTF-8 bytes of
	// %XX each.
	formCharMax = 12
	// numberMax is a number as it is written: an int64 with its sign, or a
	// float64 in any reasonable notation.
	integerMax = 20
	numberMax  = 64
	// boundDepth stops the walk of a recursive schema: it is unbounded.
	boundDepth = 32
)

// formatMax are the largest lengths of the string formats that bound them.
var formatMax = map[string]int{
	"uuid": 36, "date": 10, "date-time": 64, "ipv4": 15, "ipv6": 45, "int64": 20, "int32": 11,
}

// bodyLimitOf is the limit of a body whose compact encoding is at most n
// bytes: twice that, for whitespace between tokens and indentation, plus
// 4 KiB.
func bodyLimitOf(n int64) int64 { return 2*n + 4096 }

// sizer computes encoded bounds of schemas, resolving references in
// components.
type sizer struct {
	components map[string]*Schema
	// charMax is the worst size of one character of a string.
	charMax int64
}

func (z sizer) resolve(s *Schema) *Schema {
	for s != nil && s.Ref != "" {
		s = z.components[strings.TrimPrefix(s.Ref, refPrefix)]
	}
	return s
}

// bound returns the most bytes a value of s takes encoded, and false when
// nothing bounds it.
func (z sizer) bound(s *Schema, depth int) (int64, bool) {
	s = z.resolve(s)
	if s == nil || depth > boundDepth {
		return 0, false
	}
	n, ok := z.typeBound(s, depth)
	for _, sub := range s.AllOf {
		// A value of every part: the parts' members together.
		m, subOK := z.bound(sub, depth+1)
		if !subOK {
			return 0, false
		}
		n, ok = n+m, true
	}
	for _, alts := range [][]*Schema{s.OneOf, s.AnyOf} {
		if len(alts) == 0 {
			continue
		}
		var most int64
		for _, sub := range alts {
			m, subOK := z.bound(sub, depth+1)
			if !subOK {
				return 0, false
			}
			most = max(most, m)
		}
		n, ok = max(n, most), true
	}
	if !ok {
		return 0, false
	}
	if s.Nullable {
		n = max(n, 4) // null
	}
	return n, true
}

// typeBound is the bound of s by its own type, ignoring compositions; an
// untyped schema is unbounded unless a composition bounds it.
func (z sizer) typeBound(s *Schema, depth int) (int64, bool) {
	switch s.Type {
	case "string":
		return z.stringBound(s)
	case "integer":
		return integerMax, true
	case "number":
		return numberMax, true
	case "boolean":
		return 5, true
	case "array":
		if s.MaxItems == nil {
			return 0, false
		}
		item, ok := z.bound(s.Items, depth+1)
		if !ok {
			return 0, false
		}
		return 2 + int64(*s.MaxItems)*(item+1), true
	case "object":
		if s.AdditionalProperties != nil {
			return 0, false
		}
		var n int64 = 2
		for name, prop := range s.Properties {
			v, ok := z.bound(prop, depth+1)
			if !ok {
				return 0, false
			}
			n += z.charMax*int64(utf8.RuneCountInString(name)) + 2 + 1 + v + 1
		}
		return n, true
	}
	return 0, len(s.AllOf)+len(s.OneOf)+len(s.AnyOf) > 0
}

func (z sizer) stringBound(s *Schema) (int64, bool) {
	chars := -1
	switch {
	case len(s.Enum) > 0:
		for _, e := range s.Enum {
			if str, ok := e.(string); ok {
				chars = max(chars, utf8.RuneCountInString(str))
			}
		}
	case s.MaxLength != nil:
		chars = *s.MaxLength
	default:
		if n, ok := formatMax[s.Format]; ok {
			chars = n
		}
	}
	if chars < 0 {
		return 0, false
	}
	return z.charMax*int64(chars) + 2, true
}

// formBound is the bound of a URL-encoded form of the object s: each
// member once as name=value&, a repeated member maxItems times.
func (z sizer) formBound(s *Schema) (int64, bool) {
	s = z.resolve(s)
	if s == nil || s.Type != "object" || s.AdditionalProperties != nil {
		return 0, false
	}
	var n int64
	for name, prop := range s.Properties {
		prop = z.resolve(prop)
		times := int64(1)
		if prop != nil && prop.Type == "array" {
			if prop.MaxItems == nil {
				return 0, false
			}
			times, prop = int64(*prop.MaxItems), z.resolve(prop.Items)
		}
		v, ok := z.bound(prop, 0)
		if !ok {
			return 0, false
		}
		n += times * (formCharMax*int64(len(name)) + 1 + v + 1)
	}
	return n, true
}

// BodyLimit returns the largest body a valid request of rb can have, in
// bytes, and false when one of its media types does not bound it (a
// multipart body, which carries files, never does). components resolves
// references.
func BodyLimit(rb *RequestBody, components map[string]*Schema) (int64, bool) {
	var most int64
	for mt, content := range rb.Content {
		var (
			n  int64
			ok bool
		)
		switch mt {
		case MediaJSON, MediaMergePatch:
			n, ok = sizer{components: components, charMax: jsonCharMax}.bound(content.Schema, 0)
		case MediaForm:
			n, ok = sizer{components: components, charMax: formCharMax}.formBound(content.Schema)
		}
		if !ok {
			return 0, false
		}
		most = max(most, bodyLimitOf(n))
	}
	return most, true
}
