package router

import "strings"

// byteSet says which bytes a part of a request may hold, so that checking
// a header costs one look-up a byte.
type byteSet [256]bool

// The bytes of a header name (a token, RFC 9110 §5.6.2), a header value
// (anything but a control character other than tab), a host name (RFC
// 3986's reg-name) and an IPv6 address in brackets, zone included.
var (
	tokenChars   = alnumAnd("!#$%&'*+-.^_`|~")
	valueChars   = valueBytes()
	regNameChars = alnumAnd("-._~%!$&'()*+,;=")
	literalChars = alnumAnd(":.%-_~")
)

// holds reports whether every byte of b is in s.
func (s *byteSet) holds(b []byte) bool {
	for _, c := range b {
		if !s[c] {
			return false
		}
	}
	return true
}

// alnumAnd is the set of the ASCII letters and digits and the bytes of
// punct.
func alnumAnd(punct string) *byteSet {
	var s byteSet
	for ch := range len(s) {
		c := byte(ch)
		s[ch] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
			strings.IndexByte(punct, c) >= 0
	}
	return &s
}

// valueBytes is the set of the bytes a header value may hold.
func valueBytes() *byteSet {
	var s byteSet
	for ch := range len(s) {
		c := byte(ch)
		s[ch] = (c >= ' ' || c == '\t') && c != 0x7f
	}
	return &s
}
