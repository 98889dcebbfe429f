package sessions

import (
	"strings"
	"unicode/utf8"
)

// Client is who a session is begun from, as its user will see it.
type Client struct {
	// Address is the client's address.
	Address string
	// UserAgent is the client's User-Agent header; only its first
	// userAgentMax bytes are kept.
	UserAgent string
}

// userAgentMax is the longest User-Agent a session keeps, in bytes.
const userAgentMax = 256

// truncateUTF8 is s cut to at most n bytes, at a rune boundary, invalid
// bytes replaced.
func truncateUTF8(s string, n int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= n {
		return s
	}
	// Valid UTF-8 starts with a rune, so the cut stops at 0 at the latest.
	for !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
