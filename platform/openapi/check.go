package openapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"net/mail"
	"net/netip"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Violation is one way a value does not conform to its schema.
type Violation struct {
	// Field names the value as the client sent it: a parameter or member
	// name, with ".member" and "[index]" for what is inside it.
	Field string
	// Message says what is wrong, in words a client developer can act on.
	Message string
	// Malformed reports a value of the wrong type or a member the schema
	// does not have: the request is malformed (400) rather than invalid
	// (422).
	Malformed bool
}

// checkedFormats are the string formats a Checker enforces beyond the
// type; other formats only describe (the integer formats are ranges of the
// type itself).
var checkedFormats = map[string]bool{
	"email": true, "uuid": true, "uri": true, "date-time": true, "ipv4": true, "ipv6": true,
}

// uuidRE is the textual form of a UUID.
var uuidRE = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// Checker checks values against the schemas of one document: what the
// document says a request may hold is what the router accepts. Values are
// those of a JSON document decoded into any (nil, bool, string,
// json.Number or float64, []any, map[string]any). A Checker is safe for
// concurrent use.
type Checker struct {
	components map[string]*Schema
	patterns   map[string]*regexp.Regexp
}

// NewChecker returns a Checker of the schemas of doc; a pattern that does
// not compile is an error.
func NewChecker(doc *Document) (*Checker, error) {
	c := &Checker{components: doc.Components.Schemas, patterns: map[string]*regexp.Regexp{}}
	var err error
	for _, item := range doc.Paths {
		for _, op := range item.operations() {
			for _, p := range op.Parameters {
				err = firstErr(err, c.compile(p.Schema))
			}
			if op.RequestBody != nil {
				for _, mt := range op.RequestBody.Content {
					err = firstErr(err, c.compile(mt.Schema))
				}
			}
		}
	}
	for _, s := range c.components {
		err = firstErr(err, c.compile(s))
	}
	return c, err
}

func firstErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// compile compiles the patterns under s; the first that does not compile
// is the error.
func (c *Checker) compile(s *Schema) error {
	var err error
	s.walk(func(s *Schema) {
		if err != nil || s.Pattern == "" {
			return
		}
		if _, ok := c.patterns[s.Pattern]; !ok {
			re, cerr := regexp.Compile(s.Pattern)
			if cerr != nil {
				err = fmt.Errorf("openapi: pattern %q: %w", s.Pattern, cerr)
				return
			}
			c.patterns[s.Pattern] = re
		}
	})
	return err
}

// Check appends to out the violations of v against s, naming v field.
func (c *Checker) Check(s *Schema, v any, field string, out []Violation) []Violation {
	if s = c.resolve(s); s == nil {
		return out
	}
	if v == nil {
		if s.Nullable || (s.Type == "" && len(s.AllOf) == 0) {
			return out
		}
		return append(out, Violation{Field: field, Message: "must not be null"})
	}
	for _, sub := range s.AllOf {
		out = c.Check(sub, v, field, out)
	}
	switch s.Type {
	case "string":
		str, ok := v.(string)
		if !ok {
			return append(out, wrongType(field, "a string"))
		}
		return c.checkString(s, str, field, out)
	case "integer", "number":
		if text, ok := v.(json.Number); ok {
			return checkNumberText(s, string(text), field, out)
		}
		n, ok := number(v)
		if !ok || (s.Type == "integer" && n != math.Trunc(n)) {
			return append(out, wrongType(field, article(s.Type)))
		}
		return checkNumber(s, n, field, out)
	case "boolean":
		b, ok := v.(bool)
		if !ok {
			return append(out, wrongType(field, "a boolean"))
		}
		return checkEnum(s, b, field, out)
	case "array":
		items, ok := v.([]any)
		if !ok {
			return append(out, wrongType(field, "an array"))
		}
		return c.checkArray(s, items, field, out)
	case "object":
		obj, ok := v.(map[string]any)
		if !ok {
			return append(out, wrongType(field, "an object"))
		}
		return c.checkObject(s, obj, field, out)
	}
	return out
}

// CheckText appends to out the violations of a parameter's text value
// against its scalar schema s (a reference or composition goes through
// Check): the text is read as the schema's type, a string as it is. It
// allocates nothing for a value that conforms.
func (c *Checker) CheckText(s *Schema, text, field string, out []Violation) []Violation {
	if s == nil || s.Ref != "" || len(s.AllOf) > 0 {
		return c.Check(s, text, field, out)
	}
	switch s.Type {
	case "integer", "number":
		return checkNumberText(s, text, field, out)
	case "boolean":
		b, err := strconv.ParseBool(text)
		if err != nil {
			return append(out, wrongType(field, "a boolean"))
		}
		return checkEnum(s, b, field, out)
	case "string", "":
		return c.checkString(s, text, field, out)
	}
	return c.Check(s, text, field, out)
}

func wrongType(field, want string) Violation {
	return Violation{Field: field, Message: "must be " + want, Malformed: true}
}

func article(typ string) string {
	if typ == "integer" {
		return "an integer"
	}
	return "a number"
}

// number reads a JSON number.
func number(v any) (float64, bool) {
	switch n := v.(type) {
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	case float64:
		return n, true
	}
	return 0, false
}

// tooLong is the violation of a string over max characters.
func tooLong(field string, max int) Violation {
	return Violation{Field: field, Message: fmt.Sprintf("must have at most %d characters", max)}
}

// encodedOver reports whether a JSON string of n encoded bytes, quotes
// excluded, has more than max characters however it is escaped: each
// character takes at most jsonCharMax bytes.
func encodedOver(n, max int) bool { return n > jsonCharMax*max }

func (c *Checker) checkString(s *Schema, str, field string, out []Violation) []Violation {
	if strings.IndexByte(str, 0) >= 0 {
		return append(out, Violation{Field: field, Message: "must not contain NUL characters"})
	}
	n := utf8.RuneCountInString(str)
	switch {
	case s.MinLength != nil && n < *s.MinLength:
		if *s.MinLength == 1 {
			return append(out, Violation{Field: field, Message: "must not be empty"})
		}
		return append(out, Violation{Field: field, Message: fmt.Sprintf("must have at least %d characters", *s.MinLength)})
	case s.MaxLength != nil && n > *s.MaxLength:
		return append(out, tooLong(field, *s.MaxLength))
	}
	if msg := checkFormat(s.Format, str); msg != "" {
		return append(out, Violation{Field: field, Message: msg})
	}
	if re := c.patterns[s.Pattern]; re != nil && !re.MatchString(str) {
		return append(out, Violation{Field: field, Message: "must match the pattern " + s.Pattern})
	}
	return checkEnum(s, str, field, out)
}

// checkFormat returns what is wrong with str in format, or "".
func checkFormat(format, str string) string {
	switch format {
	case "email":
		if a, err := mail.ParseAddress(str); err != nil || a.Address != str || a.Name != "" {
			return "must be a valid email address"
		}
	case "uuid":
		if !uuidRE.MatchString(str) {
			return "must be a UUID"
		}
	case "uri":
		if u, err := url.ParseRequestURI(str); err != nil || u.Scheme == "" {
			return "must be an absolute URL"
		}
	case "date-time":
		// At most the length the body limits count a date-time as (its
		// fraction has 9 digits at most that matter; more are noise).
		if len(str) > formatMax["date-time"] {
			return fmt.Sprintf("must be a date-time as in RFC 3339, at most %d characters", formatMax["date-time"])
		}
		// As the binding's JSON decoding reads a time.Time (strictly: no
		// hour 24 in an offset), so that the check and the binding agree.
		var t time.Time
		quoted, err := jsontext.AppendQuote(nil, str)
		if err != nil || jsonv2.Unmarshal(quoted, &t) != nil {
			return "must be a date-time as in RFC 3339"
		}
		// Stored and answered in UTC, which RFC 3339 writes with years
		// 0001 to 9999 only (and PostgreSQL has no year 0).
		if y := t.UTC().Year(); y < 1 || y > 9999 {
			return "must be an instant from year 0001 to 9999 in UTC"
		}
	case "ipv4":
		if a, err := netip.ParseAddr(str); err != nil || !a.Is4() {
			return "must be an IPv4 address"
		}
	case "ipv6":
		if a, err := netip.ParseAddr(str); err != nil || !a.Is6() {
			return "must be an IPv6 address"
		}
	}
	return ""
}

func checkNumber(s *Schema, n float64, field string, out []Violation) []Violation {
	switch bits := intBits(s); {
	case bits == 32 && (n < math.MinInt32 || n > math.MaxInt32),
		bits == 64 && (n < math.MinInt64 || n >= math.MaxInt64): // float64(MaxInt64) is 2^63
		return append(out, tooWide(field, bits))
	}
	return checkBounds(s, n, field, out)
}

// checkNumberText checks a number written as text, a JSON number or a
// parameter, against s. An integer of format int32 or int64 is read from
// its digits, exactly: a float64 cannot hold 2^63-1, and takes it for 2^63.
// An integer written with a fraction or an exponent (1.0, 1e2) is not an
// integer here, as Go's decoding of it will not be.
func checkNumberText(s *Schema, text, field string, out []Violation) []Violation {
	n, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(n, 0) || (s.Type == "integer" && n != math.Trunc(n)) {
		return append(out, wrongType(field, article(s.Type)))
	}
	bits := intBits(s)
	if bits == 0 {
		return checkNumber(s, n, field, out)
	}
	if _, err := strconv.ParseInt(text, 10, bits); errors.Is(err, strconv.ErrRange) {
		return append(out, tooWide(field, bits))
	} else if err != nil {
		return append(out, wrongType(field, article(s.Type)))
	}
	return checkBounds(s, n, field, out)
}

// intBits is the width of an integer schema's format, 32 or 64; 0 for any
// other schema.
func intBits(s *Schema) int {
	if s.Type != "integer" {
		return 0
	}
	switch s.Format {
	case "int32":
		return 32
	case "int64":
		return 64
	}
	return 0
}

// tooWide is the violation of an integer past its format's width.
func tooWide(field string, bits int) Violation {
	return Violation{Field: field, Message: fmt.Sprintf("must fit in %d bits", bits), Malformed: true}
}

// checkBounds checks n against the bounds, the multiple and the enum of s.
func checkBounds(s *Schema, n float64, field string, out []Violation) []Violation {
	fmtN := func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
	switch {
	case s.Minimum != nil && s.ExclusiveMinimum && n <= *s.Minimum:
		return append(out, Violation{Field: field, Message: "must be greater than " + fmtN(*s.Minimum)})
	case s.Minimum != nil && n < *s.Minimum:
		return append(out, Violation{Field: field, Message: "must be at least " + fmtN(*s.Minimum)})
	case s.Maximum != nil && s.ExclusiveMaximum && n >= *s.Maximum:
		return append(out, Violation{Field: field, Message: "must be less than " + fmtN(*s.Maximum)})
	case s.Maximum != nil && n > *s.Maximum:
		return append(out, Violation{Field: field, Message: "must be at most " + fmtN(*s.Maximum)})
	case s.MultipleOf != nil && *s.MultipleOf != 0 && math.Mod(n, *s.MultipleOf) != 0:
		return append(out, Violation{Field: field, Message: "must be a multiple of " + fmtN(*s.MultipleOf)})
	}
	return checkEnum(s, n, field, out)
}

// checkEnum checks v, a string, float64 or bool, against s.Enum.
func checkEnum(s *Schema, v any, field string, out []Violation) []Violation {
	if len(s.Enum) == 0 {
		return out
	}
	for _, e := range s.Enum {
		if n, ok := number(e); ok {
			e = n
		}
		switch ev := e.(type) {
		case int:
			e = float64(ev)
		case int64:
			e = float64(ev)
		}
		if e == v {
			return out
		}
	}
	allowed := make([]string, len(s.Enum))
	for i, e := range s.Enum {
		allowed[i] = fmt.Sprint(e)
	}
	return append(out, Violation{Field: field, Message: "must be one of: " + strings.Join(allowed, ", ")})
}

func (c *Checker) checkArray(s *Schema, items []any, field string, out []Violation) []Violation {
	switch {
	case s.MinItems != nil && len(items) < *s.MinItems:
		return append(out, Violation{Field: field, Message: fmt.Sprintf("must have at least %d items", *s.MinItems)})
	case s.MaxItems != nil && len(items) > *s.MaxItems:
		return append(out, Violation{Field: field, Message: fmt.Sprintf("must have at most %d items", *s.MaxItems)})
	}
	for i, item := range items {
		out = c.Check(s.Items, item, field+"["+strconv.Itoa(i)+"]", out)
	}
	return out
}

func (c *Checker) checkObject(s *Schema, obj map[string]any, field string, out []Violation) []Violation {
	prefix := ""
	if field != "" {
		prefix = field + "."
	}
	for _, name := range s.Required {
		if _, ok := obj[name]; !ok {
			out = append(out, Violation{Field: prefix + name, Message: "is required"})
		}
	}
	switch {
	case s.MinProperties != nil && len(obj) < *s.MinProperties:
		out = append(out, Violation{Field: field, Message: fmt.Sprintf("must have at least %d members", *s.MinProperties)})
	case s.MaxProperties != nil && len(obj) > *s.MaxProperties:
		out = append(out, Violation{Field: field, Message: fmt.Sprintf("must have at most %d members", *s.MaxProperties)})
	}
	// Members in a stable order, so that a problem lists them alike on
	// every request.
	for _, name := range slices.Sorted(maps.Keys(obj)) {
		prop, known := s.Properties[name]
		switch {
		case known:
			out = c.Check(prop, obj[name], prefix+name, out)
		case s.AdditionalProperties != nil:
			out = c.Check(s.AdditionalProperties, obj[name], prefix+name, out)
		case len(s.AllOf) == 0:
			out = append(out, Violation{Field: prefix + name, Message: "is not a member of this object", Malformed: true})
		}
	}
	return out
}
