package openapi

import (
	"reflect"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// TestRawStringsAreCheckedAsTheirValues checks that a string checked as
// its JSON text (RawString) gets exactly the violations of its value.
func TestRawStringsAreCheckedAsTheirValues(t *testing.T) {
	t.Parallel()
	ptr := func(n int) *int { return &n }
	// The pattern is compiled from a schema of the document.
	c, err := NewChecker(&Document{Components: Components{Schemas: map[string]*Schema{"A": {Type: "string", Pattern: "^a+$"}}}})
	if err != nil {
		t.Fatal(err)
	}
	schemas := map[string]*Schema{
		"plain":       {Type: "string"},
		"max 5":       {Type: "string", MaxLength: ptr(5)},
		"min 3":       {Type: "string", MinLength: ptr(3)},
		"not empty":   {Type: "string", MinLength: ptr(1)},
		"max 10000":   {Type: "string", MaxLength: ptr(10000)},
		"email":       {Type: "string", Format: "email"},
		"pattern a+":  {Type: "string", Pattern: "^a+$"},
		"enum":        {Type: "string", Enum: []any{"on", "off"}},
		"an integer":  {Type: "integer"},
		"nullable ok": {Type: "string", Nullable: true, MaxLength: ptr(2)},
	}
	values := []string{
		"", "ab", "abc", "abcdef", "ann@example.com", "aaaa", "on",
		"é" + strings.Repeat("x", 3), "😀😀", strings.Repeat("a", 10000), strings.Repeat("a", 10001),
		strings.Repeat("é", 9000), "nul\x00inside", `back\slash u0000`,
	}
	for name, s := range schemas {
		for _, v := range values {
			raw, err := jsontext.AppendQuote(nil, v)
			if err != nil {
				t.Fatal(err)
			}
			// Escape every character, as a client may: the longest
			// encoding of the same value.
			escaped := escapeAll(v)
			for _, text := range [][]byte{raw, escaped} {
				want := c.Check(s, v, "f", nil)
				got := c.Check(s, RawString(text), "f", nil)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s, %.40q as %.40s: got %v, want %v", name, v, text, got, want)
				}
			}
		}
	}
}

// escapeAll quotes v with every character as \u escapes.
func escapeAll(v string) []byte {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range v {
		for _, u := range utf16Units(r) {
			b.WriteString(`\u`)
			b.WriteString(strings.ToLower(hex4(u)))
		}
	}
	b.WriteByte('"')
	return []byte(b.String())
}

func utf16Units(r rune) []uint16 {
	if r < 0x10000 {
		return []uint16{uint16(r)}
	}
	r -= 0x10000
	return []uint16{uint16(0xD800 + (r >> 10)), uint16(0xDC00 + (r & 0x3FF))}
}

func hex4(u uint16) string {
	const digits = "0123456789ABCDEF"
	return string([]byte{digits[u>>12], digits[u>>8&0xF], digits[u>>4&0xF], digits[u&0xF]})
}
