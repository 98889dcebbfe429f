package router

import "bytes"

// A request names the host it is for in Host, or in its target when the
// target is in absolute form (http://host:port/path, RFC 9112 §3.2.2),
// and a proxy in front may route by either: both are held to the shape of
// an authority without user information (RFC 3986 §3.2.2 and §3.2.3), so
// that no two parsers read a different host or port out of one request.

// isHost reports whether b is a host and an optional port: a name or an
// IPv4 address (letters, digits and -._~%!$&'()*+,;=, RFC 3986's
// reg-name), or an IPv6 address in brackets, then ":" and 1 to 5 digits up
// to 65535. Not a host: an empty one (":80"), user information
// ("evil@host"), a path, a second port.
func isHost(b []byte) bool {
	host, port, hasPort := b, []byte(nil), false
	if len(b) > 0 && b[0] == '[' {
		end := bytes.IndexByte(b, ']')
		if end < 0 || !literalChars.holds(b[1:end]) || end == 1 {
			return false
		}
		if rest := b[end+1:]; len(rest) > 0 {
			if rest[0] != ':' {
				return false
			}
			port, hasPort = rest[1:], true
		}
	} else {
		if i := bytes.IndexByte(b, ':'); i >= 0 {
			host, port, hasPort = b[:i], b[i+1:], true
		}
		if len(host) == 0 || !regNameChars.holds(host) {
			return false
		}
	}
	return !hasPort || isPort(port)
}

// isPort reports whether b is a TCP port: 1 to 5 digits, at most 65535.
func isPort(b []byte) bool {
	if len(b) == 0 || len(b) > 5 {
		return false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
		n = n*10 + int(c-'0')
	}
	return n <= 65535
}

// absoluteAuthority is the authority of target when target is in absolute
// form (a scheme, "://", then the authority up to the path, query or end);
// ok is false for any other form (origin form "/path", "*").
func absoluteAuthority(target []byte) (authority []byte, ok bool) {
	i := bytes.Index(target, []byte("://"))
	if i <= 0 || target[0] == '/' {
		return nil, false
	}
	rest := target[i+3:]
	end := bytes.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	return rest[:end], true
}
