package openapi

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// CheckJSON appends to out the violations of body, one JSON document,
// against s. It reads body as a stream of tokens in place, guided by s: a
// value of the wrong type, a member s does not have and the items of an
// array past its maxItems are skipped without being decoded, a string over
// its maxLength is refused by its encoded size alone, and only the scalars
// that fit their schema are decoded to be checked. So checking costs no
// more memory than the depth of the document, whatever the body holds. A
// body that is not well-formed JSON (a syntax error, invalid UTF-8, a
// member twice, trailing data) is an error of package jsontext.
func (c *Checker) CheckJSON(s *Schema, body []byte, out []Violation) ([]Violation, error) {
	// A bytes.Buffer is read in place by the decoder.
	dec := jsontext.NewDecoder(bytes.NewBuffer(body))
	out, err := c.walk(dec, s, "", out)
	if err != nil {
		return out, err
	}
	if _, err := dec.ReadToken(); !errors.Is(err, io.EOF) {
		if err == nil {
			err = &jsontext.SyntacticError{Err: errors.New("data after the top-level value")}
		}
		return out, err
	}
	return out, nil
}

// walk checks the value dec is at against s.
func (c *Checker) walk(dec *jsontext.Decoder, s *Schema, field string, out []Violation) ([]Violation, error) {
	s = c.resolve(s)
	kind := dec.PeekKind()
	switch {
	case kind == 0:
		_, err := dec.ReadToken()
		return out, err
	case s == nil:
		return out, dec.SkipValue()
	case len(s.AllOf)+len(s.OneOf)+len(s.AnyOf) > 0 || s.Type == "":
		// A composition or an untyped schema is checked on the decoded
		// value; the body limit bounds it.
		return c.checkDecoded(dec, s, field, out)
	case kind == 'n':
		_, err := dec.ReadToken()
		if !s.Nullable {
			out = append(out, Violation{Field: field, Message: "must not be null"})
		}
		return out, err
	}
	if kind == 'f' {
		kind = 't'
	}
	if kind != kindOf(s.Type) {
		return append(out, wrongType(field, typeWords(s.Type))), dec.SkipValue()
	}
	switch s.Type {
	case "object":
		return c.walkObject(dec, s, field, out)
	case "array":
		return c.walkArray(dec, s, field, out)
	}
	raw, err := dec.ReadValue()
	if err != nil {
		return out, err
	}
	switch s.Type {
	case "string":
		if s.MaxLength != nil && encodedOver(len(raw)-2, *s.MaxLength) {
			return append(out, tooLong(field, *s.MaxLength)), nil
		}
		str := raw[1 : len(raw)-1]
		if bytes.IndexByte(str, '\\') >= 0 {
			if str, err = jsontext.AppendUnquote(nil, raw); err != nil {
				return out, err
			}
		}
		// Checked and dropped: a view of the body (the decoder has checked
		// its UTF-8) or of the unquoted copy, never a third copy.
		return c.checkString(s, unsafe.String(unsafe.SliceData(str), len(str)), field, out), nil
	case "boolean":
		return checkEnum(s, raw[0] == 't', field, out), nil
	}
	return checkNumberText(s, string(raw), field, out), nil
}

// kindOf is the token kind that starts a value of a schema type.
func kindOf(typ string) jsontext.Kind {
	switch typ {
	case "object":
		return '{'
	case "array":
		return '['
	case "string":
		return '"'
	case "integer", "number":
		return '0'
	case "boolean":
		return 't'
	}
	return 0
}

// typeWords names a value of a schema type with its article.
func typeWords(typ string) string {
	switch typ {
	case "integer", "number":
		return article(typ)
	case "array", "object":
		return "an " + typ
	}
	return "a " + typ
}

// checkDecoded decodes the value dec is at and checks it with Check.
func (c *Checker) checkDecoded(dec *jsontext.Decoder, s *Schema, field string, out []Violation) ([]Violation, error) {
	raw, err := dec.ReadValue()
	if err != nil {
		return out, err
	}
	var v any
	if err := jsonv2.Unmarshal(raw, &v); err != nil {
		return out, err
	}
	return c.Check(s, v, field, out), nil
}

// member is the violations of one member of an object.
type member struct {
	name string
	bad  []Violation
}

func (c *Checker) walkObject(dec *jsontext.Decoder, s *Schema, field string, out []Violation) ([]Violation, error) {
	if _, err := dec.ReadToken(); err != nil {
		return out, err
	}
	prefix := ""
	if field != "" {
		prefix = field + "."
	}
	var (
		members []member
		present = make([]bool, len(s.Required))
		count   int
	)
	for dec.PeekKind() == '"' {
		tok, err := dec.ReadToken()
		if err != nil {
			return out, err
		}
		name := tok.String()
		count++
		if i := slices.Index(s.Required, name); i >= 0 {
			present[i] = true
		}
		var bad []Violation
		prop, known := s.Properties[name]
		switch {
		case known:
			bad, err = c.walk(dec, prop, prefix+name, nil)
		case s.AdditionalProperties != nil:
			bad, err = c.walk(dec, s.AdditionalProperties, prefix+name, nil)
		default:
			bad, err = []Violation{{Field: prefix + name, Message: "is not a member of this object", Malformed: true}}, dec.SkipValue()
		}
		if err != nil {
			return out, err
		}
		if len(bad) > 0 {
			members = append(members, member{name: name, bad: bad})
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		return out, err
	}
	// The order of Check: missing members, the member count, then each
	// member's violations by name, alike on every request.
	for i, name := range s.Required {
		if !present[i] {
			out = append(out, Violation{Field: prefix + name, Message: "is required"})
		}
	}
	switch {
	case s.MinProperties != nil && count < *s.MinProperties:
		out = append(out, Violation{Field: field, Message: fmt.Sprintf("must have at least %d members", *s.MinProperties)})
	case s.MaxProperties != nil && count > *s.MaxProperties:
		out = append(out, Violation{Field: field, Message: fmt.Sprintf("must have at most %d members", *s.MaxProperties)})
	}
	slices.SortFunc(members, func(a, b member) int { return strings.Compare(a.name, b.name) })
	for _, m := range members {
		out = append(out, m.bad...)
	}
	return out, nil
}

func (c *Checker) walkArray(dec *jsontext.Decoder, s *Schema, field string, out []Violation) ([]Violation, error) {
	if _, err := dec.ReadToken(); err != nil {
		return out, err
	}
	var (
		items []Violation
		n     int
	)
	for k := dec.PeekKind(); k != ']' && k != 0; k = dec.PeekKind() {
		var err error
		if s.MaxItems != nil && n >= *s.MaxItems {
			err = dec.SkipValue()
		} else {
			items, err = c.walk(dec, s.Items, field+"["+strconv.Itoa(n)+"]", items)
		}
		if err != nil {
			return out, err
		}
		n++
	}
	if _, err := dec.ReadToken(); err != nil {
		return out, err
	}
	switch {
	case s.MinItems != nil && n < *s.MinItems:
		return append(out, Violation{Field: field, Message: fmt.Sprintf("must have at least %d items", *s.MinItems)}), nil
	case s.MaxItems != nil && n > *s.MaxItems:
		return append(out, Violation{Field: field, Message: fmt.Sprintf("must have at most %d items", *s.MaxItems)}), nil
	}
	return append(out, items...), nil
}

// resolve follows s's reference, if any.
func (c *Checker) resolve(s *Schema) *Schema {
	for s != nil && s.Ref != "" {
		s = c.components[strings.TrimPrefix(s.Ref, refPrefix)]
	}
	return s
}
