package router

import "testing"

// TestHeadFaultsAreNamed checks the router's own reading of a head, which
// refuses what parsers disagree on whatever fasthttp lets through: most of
// these fasthttp 1.78 refuses before the router sees them, so the wire
// tests (head_test.go) cannot reach this code for them.
func TestHeadFaultsAreNamed(t *testing.T) {
	t.Parallel()
	lines := []struct {
		name, proto, target string
		http11              bool
		want                string
	}{
		{"HTTP/1.1", "HTTP/1.1", "/a?b=c", true, ""},
		{"HTTP/1.0", "HTTP/1.0", "/a", false, ""},
		{"HTTP/1.1 not read as 1.1", "HTTP/1.1", "/a", false, detailVersion},
		{"HTTP/2.0", "HTTP/2.0", "/a", false, detailVersion},
		{"a version in lower case", "http/1.1", "/a", false, detailVersion},
		{"no version", "", "/a", false, detailVersion},
		{"a space in the target", "HTTP/1.1", "/a b", true, detailTarget},
		{"a CR in the target", "HTTP/1.1", "/a\rb", true, detailTarget},
		{"DEL in the target", "HTTP/1.1", "/a\x7f", true, detailTarget},
		{"the asterisk form", "HTTP/1.1", "*", true, ""},
		{"the absolute form", "HTTP/1.1", "http://api.example.com:8080/a?b=c", true, ""},
		{"the absolute form, an IPv6 address", "HTTP/1.1", "https://[::1]/a", true, ""},
		{"the absolute form, no path", "HTTP/1.1", "http://a.example", true, ""},
		{"the absolute form, user information", "HTTP/1.1", "http://evil@other/livez", true, detailTargetHost},
		{"the absolute form, user and password", "HTTP/1.1", "http://a:b@other/livez", true, detailTargetHost},
		{"the absolute form, no host", "HTTP/1.1", "http:///livez", true, detailTargetHost},
		{"the absolute form, a port alone", "HTTP/1.1", "http://:80/livez", true, detailTargetHost},
		{"an origin form holding ://", "HTTP/1.1", "/a?next=http://evil@x/", true, ""},
	}
	for _, tc := range lines {
		if got := lineFault([]byte(tc.proto), []byte(tc.target), tc.http11); got != tc.want {
			t.Errorf("request line %s: %q, want %q", tc.name, got, tc.want)
		}
	}
	heads := []struct {
		name, raw string
		needHost  bool
		want      string
	}{
		{"sound", "Host: a\r\nAccept: */*\r\n\r\n", true, ""},
		{"lines ended by LF alone", "Host: a\nAccept: */*\n\n", true, ""},
		{"an empty Host", "Host:\r\n\r\n", true, detailHost},
		{"a tab and text past ASCII in a value", "Host: a\r\nX-A: a\tb \xc3\xa9\r\n\r\n", true, ""},
		{"a folded line", "Host: a\r\nX-A: a\r\n b\r\n\r\n", true, detailFolded},
		{"a folded line that reads as Content-Length", "Host: a\r\nX-A: a\r\n Content-Length: 29\r\n\r\n", true, detailFolded},
		{"a folded line after a tab", "Host: a\r\nX-A: a\r\n\tb\r\n\r\n", true, detailFolded},
		{"Host with a port", "Host: api.example.com:8443\r\n\r\n", true, ""},
		{"Host as an IPv4 address", "Host: 192.0.2.1:80\r\n\r\n", true, ""},
		{"Host as an IPv6 address", "Host: [2001:db8::1]:80\r\n\r\n", true, ""},
		{"Host with user information", "Host: evil@a\r\n\r\n", true, detailHost},
		{"Host with a path", "Host: a/b\r\n\r\n", true, detailHost},
		{"Host with a space", "Host: a b\r\n\r\n", true, detailHost},
		{"Host with a NUL", "Host: a\x00\r\n\r\n", true, detailHost},
		{"Host as an IPv6 address with a zone", "Host: [fe80::1%25eth0]:80\r\n\r\n", true, ""},
		{"Host as a port alone", "Host: :80\r\n\r\n", true, detailHost},
		{"Host as a colon", "Host: :\r\n\r\n", true, detailHost},
		{"Host with an empty port", "Host: a:\r\n\r\n", true, detailHost},
		{"Host with a port past 65535", "Host: a:65536\r\n\r\n", true, detailHost},
		{"Host with the largest port", "Host: a:65535\r\n\r\n", true, ""},
		{"Host with a port of six digits", "Host: a:000080\r\n\r\n", true, detailHost},
		{"Host with two ports", "Host: a:1:2\r\n\r\n", true, detailHost},
		{"Host with a port of letters", "Host: a:http\r\n\r\n", true, detailHost},
		{"Host as an unclosed IPv6 address", "Host: [::1\r\n\r\n", true, detailHost},
		{"Host as empty brackets", "Host: []\r\n\r\n", true, detailHost},
		{"Host with text after the brackets", "Host: [::1]x\r\n\r\n", true, detailHost},
		{"Host as an IPv6 address unbracketed", "Host: ::1\r\n\r\n", true, detailHost},
		{"a bare CR ending a line", "Host: a\r\nFoo: a\r\r\n\r\n", true, detailBareCR},
		{"a bare CR hiding a field", "Host: a\r\nFoo: a\rContent-Length: 5\r\n\r\n", true, detailBareCR},
		{"a bare CR starting a line", "Host: a\r\n\rFoo: a\r\n\r\n", true, detailBareCR},
		{"a line without a colon", "Host: a\r\nFoo\r\n\r\n", true, detailMissingColon},
		{"a name that is not a token", "Host: a\r\nX(A): b\r\n\r\n", true, detailFieldName},
		{"an empty name", "Host: a\r\n: b\r\n\r\n", true, detailFieldName},
		{"a NUL in a value", "Host: a\r\nX-A: a\x00b\r\n\r\n", true, detailFieldValue},
		{"DEL in a value", "Host: a\r\nX-A: a\x7fb\r\n\r\n", true, detailFieldValue},
		{"no Host on HTTP/1.1", "Accept: */*\r\n\r\n", true, detailNoHost},
		{"no Host, none needed", "Accept: */*\r\n\r\n", false, ""},
		{"two Hosts", "Host: a\r\nhost: a\r\n\r\n", true, detailTwoHosts},
		{"two Content-Length fields", "Host: a\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\n", true, detailContentLengths},
		{"two Content-Type fields", "Host: a\r\nContent-Type: a/b\r\nContent-Type: c/d\r\n\r\n", true, detailContentTypes},
		{"Transfer-Encoding and Content-Length", "Host: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 1\r\n\r\n", true, detailBothFramings},
		{"Transfer-Encoding other than chunked", "Host: a\r\nTransfer-Encoding: gzip\r\n\r\n", true, detailTransferEncoding},
		{"a folded Content-Length", "Host: a\r\nContent-Length:\r\n 1\r\n\r\n", true, detailFolded},
		{"a folded line before the first field", " X-A: a\r\nHost: a\r\n\r\n", true, detailFolded},
		// A fault of the fields is named before one of the framing,
		// wherever each is in the head.
		{"a bad name after two Content-Length fields", "Host: a\r\nContent-Length: 1\r\nContent-Length: 1\r\nX(A): b\r\n\r\n", true, detailFieldName},
		{"no Host after two Content-Length fields", "Content-Length: 1\r\nContent-Length: 1\r\n\r\n", true, detailNoHost},
		// The first fault of the framing is the one named.
		{"two Content-Types, then two Content-Lengths", "Host: a\r\nContent-Type: a/b\r\nContent-Type: a/b\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\n", true, detailContentTypes},
	}
	for _, tc := range heads {
		if got := headerFault([]byte(tc.raw), true, tc.needHost); got != tc.want {
			t.Errorf("head %s: %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := headerFault([]byte("Host: a\r\nTransfer-Encoding: chunked\r\n\r\n"), false, false); got != detailTransferEncoding {
		t.Errorf("chunked on HTTP/1.0: %q, want %q", got, detailTransferEncoding)
	}
}

// BenchmarkHeadChecks is what checking a request's head for the faults
// parsers disagree on costs, on the head of a typical API request.
func BenchmarkHeadChecks(b *testing.B) {
	raw := []byte("Host: api.example.com\r\n" +
		"User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36\r\n" +
		"Accept: application/json\r\n" +
		"Accept-Encoding: gzip, deflate, br\r\n" +
		"Authorization: Bearer eyJhbGciOiJFZERTQSIsImtpZCI6ImsxIiwidHlwIjoiSldUIn0.eyJzdWIiOiIxMjM0NSIsInJvbGUiOiJhZG1pbiIsImlhdCI6MTcwMDAwMDAwMCwiZXhwIjoxNzAwMDAwOTAwfQ.c2lnbmF0dXJlc2lnbmF0dXJlc2lnbmF0dXJlc2lnbmF0dXJlc2lnbmF0dXJl\r\n" +
		"If-None-Match: W/\"q2Yc9Dm0Jx3bKmYQ4bqMvA\"\r\n" +
		"\r\n")
	for b.Loop() {
		if headerFault(raw, true, false) != "" {
			b.Fatal("a sound head refused")
		}
	}
}
