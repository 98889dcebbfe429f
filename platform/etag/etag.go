// Package etag holds the entity tags of HTTP (RFC 9110, section 8.8.3) as
// the router answers them and reads them back in If-None-Match and
// If-Match: strong tags a resource chooses (a version), weak tags made from
// the bytes of an answer (a page of a list), and the comparisons the two
// conditional headers use.
package etag

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
)

// Tagged is an answer that names its own entity tag: a value that changes
// whenever its representation does, such as a version number the database
// raises on every write. The router sends it as a strong ETag, answers 304
// to a GET whose If-None-Match holds it, and routes with If-Match compare
// it with what the client read.
type Tagged interface {
	// EntityTag is the opaque tag, without quotes: visible ASCII but '"'.
	EntityTag() string
}

// Strong quotes the opaque tag of a Tagged answer into an ETag value;
// opaque must be valid (see Check).
func Strong(opaque string) string { return `"` + opaque + `"` }

// Check returns an error unless opaque can be an entity tag: not empty,
// and visible ASCII characters other than '"' only.
func Check(opaque string) error {
	if opaque == "" {
		return fmt.Errorf("etag: empty entity tag")
	}
	for i := 0; i < len(opaque); i++ {
		if c := opaque[i]; c <= ' ' || c == '"' || c >= 0x7f {
			return fmt.Errorf("etag: entity tag %q has a character a header cannot carry (byte %d)", opaque, i)
		}
	}
	return nil
}

// Weak is the weak ETag of an answer's bytes: W/ and a digest of body
// (SHA-256, the first 16 bytes in base64url), the same on every instance.
func Weak(body []byte) string {
	sum := sha256.Sum256(body)
	// W/" + 16 bytes in base64url (22 characters) + ", in one allocation.
	var tag [3 + 22 + 1]byte
	copy(tag[:], `W/"`)
	base64.RawURLEncoding.Encode(tag[3:], sum[:16])
	tag[len(tag)-1] = '"'
	return string(tag[:])
}

// Condition is an If-Match or If-None-Match header as a client sent it.
type Condition struct {
	// Present is true when the request has the header.
	Present bool
	// Any is true for "*": any current representation.
	Any bool
	// Tags are the entity tags listed, each as sent (quoted, W/ kept).
	Tags []string
}

// Parse reads an If-Match or If-None-Match value that a request carries:
// "*" or a comma-separated list of entity tags (RFC 9110, sections 13.1.1
// and 13.1.2; empty members are allowed). A value that is neither, an
// empty one included, is present but names no tag: it matches nothing, so
// a malformed If-Match fails its precondition and a malformed
// If-None-Match never turns an answer into a 304.
func Parse(header string) Condition {
	header = strings.Trim(header, " \t")
	if header == "*" {
		return Condition{Present: true, Any: true}
	}
	c := Condition{Present: true}
	for rest := header; ; {
		rest = strings.TrimLeft(rest, " \t,")
		if rest == "" {
			return c
		}
		tag, after, ok := cutTag(rest)
		if !ok {
			return Condition{Present: true}
		}
		c.Tags = append(c.Tags, tag)
		// A tag ends its member: what follows is blanks, then a comma or
		// the end.
		after = strings.TrimLeft(after, " \t")
		if after != "" && after[0] != ',' {
			return Condition{Present: true}
		}
		rest = after
	}
}

// ParseFields reads the fields of one conditional header (If-Match or
// If-None-Match) as a request carries them, in order: no field is no
// condition, and several are one list (RFC 9110, section 5.3), each read
// by Parse, an empty one included.
func ParseFields(fields [][]byte) Condition {
	switch len(fields) {
	case 0:
		return Condition{}
	case 1:
		return Parse(string(fields[0]))
	}
	return Parse(string(bytes.Join(fields, []byte(", "))))
}

// cutTag cuts the entity tag that s starts with, W/ included, from the
// rest; ok is false when s does not start with a valid one.
func cutTag(s string) (tag, rest string, ok bool) {
	start := 0
	if strings.HasPrefix(s, "W/") {
		start = 2
	}
	if len(s) <= start || s[start] != '"' {
		return "", "", false
	}
	end := strings.IndexByte(s[start+1:], '"')
	if end < 0 {
		return "", "", false
	}
	tag = s[:start+end+2]
	if Check(tag[start+1:len(tag)-1]) != nil {
		return "", "", false
	}
	return tag, s[len(tag):], true
}

// MatchWeak reports whether the condition holds etag by the weak
// comparison (If-None-Match): the opaque tags are equal, W/ aside.
func (c Condition) MatchWeak(etag string) bool {
	if c.Any {
		return true
	}
	etag = strings.TrimPrefix(etag, "W/")
	for _, t := range c.Tags {
		if strings.TrimPrefix(t, "W/") == etag {
			return true
		}
	}
	return false
}

// Opaque returns the opaque values of the condition's strong tags, the
// ones the strong comparison of If-Match can match; weak tags never do.
func (c Condition) Opaque() []string {
	var out []string
	for _, t := range c.Tags {
		if !strings.HasPrefix(t, "W/") {
			out = append(out, t[1:len(t)-1])
		}
	}
	return out
}

// Versions reads the condition as row versions, for resources whose
// entity tag is a version number in decimal (Version): nil without a
// condition (no header, or *), else the positive versions its strong tags
// name and 0, which no row has, so that a list naming no version matches
// nothing. A conditional write passes them to its WHERE version IN (…).
func (c Condition) Versions() []int64 {
	if !c.Present || c.Any {
		return nil
	}
	versions := []int64{0}
	for _, tag := range c.Opaque() {
		// Strong comparison is of the exact text (RFC 9110, section
		// 8.8.3.2): "02" and "+2" are not the tag "2".
		if v, err := strconv.ParseInt(tag, 10, 64); err == nil && v > 0 && Version(v) == tag {
			versions = append(versions, v)
		}
	}
	return versions
}

// Version is the entity tag of a row at version v: v in decimal, what
// Versions reads back.
func Version(v int64) string { return strconv.FormatInt(v, 10) }
