package sessions

import (
	"strings"
	"testing"
)

// TestTruncateUTF8 keeps a User-Agent of exactly the limit whole, cuts a
// longer one at a rune boundary, and replaces invalid bytes.
func TestTruncateUTF8(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, in string
		n        int
		want     string
	}{
		{"shorter", "curl/8", 10, "curl/8"},
		{"exactly the limit", strings.Repeat("a", userAgentMax), userAgentMax, strings.Repeat("a", userAgentMax)},
		{"longer", "abcdef", 4, "abcd"},
		{"inside a rune", "ab€", 3, "ab"},
		{"inside the first rune", "€uro", 2, ""},
		{"no room at all", "curl/8", 0, ""},
		{"a stray continuation byte first", "\x80\x80abc", 1, ""},
		{"invalid bytes", "a\xffb", 10, "a\uFFFDb"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := truncateUTF8(tc.in, tc.n); got != tc.want {
				t.Errorf("truncateUTF8(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
			}
		})
	}
}
