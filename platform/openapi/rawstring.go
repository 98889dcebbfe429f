package openapi

import (
	"bytes"
	"unsafe"

	"github.com/go-json-experiment/json/jsontext"
)

// RawString is a JSON string as the document has it, quotes and escapes
// included, standing for its value among the values a Checker checks. A
// large string decoded as a RawString (a slice of the request body) is
// checked without being copied when its encoded size alone settles its
// rules, and unquoted only when a rule needs its characters.
type RawString []byte

// nulEscape is how a NUL character appears in a JSON string.
var nulEscape = []byte(`\u0000`)

// checkRawString checks raw as checkString checks its value.
func (c *Checker) checkRawString(s *Schema, raw RawString, field string, out []Violation) []Violation {
	// The value has at most n characters, and at least n/maxEscapedRune.
	// A NUL is reported before any other rule, so a string that may hold
	// one is unquoted.
	n := len(raw) - 2
	switch {
	case bytes.Contains(raw, nulEscape):
	case s.MaxLength != nil && encodedOver(n, *s.MaxLength):
		return append(out, tooLong(field, *s.MaxLength))
	case s.Format == "" && s.Pattern == "" && len(s.Enum) == 0 &&
		(s.MaxLength == nil || n <= *s.MaxLength) &&
		(s.MinLength == nil || n/maxEscapedRune >= *s.MinLength):
		return out // every rule holds, whatever the escapes spell
	}
	str, err := jsontext.AppendUnquote(nil, raw)
	if err != nil {
		return append(out, wrongType(field, "a string"))
	}
	return c.checkString(s, unsafe.String(unsafe.SliceData(str), len(str)), field, out)
}
