package openapi

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// maxEscapedRune is the most bytes one character can take in a JSON
// string: a surrogate pair of \uXXXX escapes.
const maxEscapedRune = 12

// errScan stops a size scan at a body that is not well-formed JSON; the
// full decode reports it.
var errScan = errors.New("openapi: size scan stopped")

// CheckSizes appends to out the violations of body, a JSON document, that
// can be seen without decoding it: strings longer than their schema's
// maxLength allows by their encoded size alone, arrays with more items than
// maxItems, and members the schema does not have. It reads body in place
// (no string is copied), so a large body can be refused for a large value
// before any of it is decoded. A body that is not well-formed yields what
// was seen before the fault; decoding it reports the fault.
func (c *Checker) CheckSizes(s *Schema, body []byte, out []Violation) []Violation {
	// A bytes.Buffer is parsed in place by the decoder.
	dec := jsontext.NewDecoder(bytes.NewBuffer(body))
	out, _ = c.scan(s, dec, "", out)
	return out
}

// scan walks the value dec is at against s.
func (c *Checker) scan(s *Schema, dec *jsontext.Decoder, field string, out []Violation) ([]Violation, error) {
	s = c.resolve(s)
	if s == nil {
		return out, skip(dec)
	}
	switch dec.PeekKind() {
	case '{':
		return c.scanObject(s, dec, field, out)
	case '[':
		return c.scanArray(s, dec, field, out)
	case '"':
		v, err := dec.ReadValue()
		if err != nil {
			return out, errScan
		}
		if ml := c.maxLength(s); ml >= 0 && encodedOver(len(v)-2, ml) {
			out = append(out, tooLong(field, ml))
		}
		return out, nil
	default:
		return out, skip(dec)
	}
}

func (c *Checker) scanObject(s *Schema, dec *jsontext.Decoder, field string, out []Violation) ([]Violation, error) {
	if _, err := dec.ReadToken(); err != nil {
		return out, errScan
	}
	prefix := ""
	if field != "" {
		prefix = field + "."
	}
	for dec.PeekKind() == '"' {
		name, err := dec.ReadToken()
		if err != nil {
			return out, errScan
		}
		sub, known := c.property(s, name.String())
		switch {
		case known:
			out, err = c.scan(sub, dec, prefix+name.String(), out)
		case s.AdditionalProperties != nil:
			out, err = c.scan(s.AdditionalProperties, dec, prefix+name.String(), out)
		default:
			out = append(out, Violation{Field: prefix + name.String(), Message: "is not a member of this object", Malformed: true})
			err = skip(dec)
		}
		if err != nil {
			return out, err
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		return out, errScan
	}
	return out, nil
}

func (c *Checker) scanArray(s *Schema, dec *jsontext.Decoder, field string, out []Violation) ([]Violation, error) {
	if _, err := dec.ReadToken(); err != nil {
		return out, errScan
	}
	n := 0
	for k := dec.PeekKind(); k != ']' && k != 0; k = dec.PeekKind() {
		var err error
		if s.MaxItems != nil && n == *s.MaxItems {
			out = append(out, Violation{Field: field, Message: fmt.Sprintf("must have at most %d items", *s.MaxItems)})
			err = skipRest(dec)
		} else {
			out, err = c.scan(s.Items, dec, field+"["+strconv.Itoa(n)+"]", out)
		}
		if err != nil {
			return out, err
		}
		n++
	}
	if _, err := dec.ReadToken(); err != nil {
		return out, errScan
	}
	return out, nil
}

// skip skips the value dec is at.
func skip(dec *jsontext.Decoder) error {
	if dec.SkipValue() != nil {
		return errScan
	}
	return nil
}

// skipRest skips the remaining values of the array dec is in.
func skipRest(dec *jsontext.Decoder) error {
	for k := dec.PeekKind(); k != ']' && k != 0; k = dec.PeekKind() {
		if err := skip(dec); err != nil {
			return err
		}
	}
	return nil
}

// resolve follows s's reference, if any.
func (c *Checker) resolve(s *Schema) *Schema {
	for s != nil && s.Ref != "" {
		s = c.components[strings.TrimPrefix(s.Ref, refPrefix)]
	}
	return s
}

// property finds the schema of member name in s or in the schemas s is
// all of. An object made of allOf parts takes members of any part, as
// Check does.
func (c *Checker) property(s *Schema, name string) (*Schema, bool) {
	if p, ok := s.Properties[name]; ok {
		return p, true
	}
	for _, sub := range s.AllOf {
		if p, ok := c.property(c.resolve(sub), name); ok {
			return p, true
		}
	}
	return nil, len(s.AllOf) > 0
}

// maxLength is the smallest maxLength of s and its allOf parts, or -1.
func (c *Checker) maxLength(s *Schema) int {
	ml := -1
	if s.MaxLength != nil {
		ml = *s.MaxLength
	}
	for _, sub := range s.AllOf {
		if sub = c.resolve(sub); sub != nil {
			if m := c.maxLength(sub); m >= 0 && (ml < 0 || m < ml) {
				ml = m
			}
		}
	}
	return ml
}
