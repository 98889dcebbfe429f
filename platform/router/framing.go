package router

import "github.com/gofiber/fiber/v2"

// A request's body is framed by Content-Length or by chunked
// Transfer-Encoding, never by both and never by a field two parsers could
// read differently: a proxy in front that frames the body one way and this
// server another way would let a client hide a second request inside the
// body of the first (request smuggling, RFC 9112 §6.1 and §6.3). fasthttp
// v1.51 keeps the last of several Content-Length fields, reads any
// Transfer-Encoding but identity as chunked and lets one with Content-Length
// pass, so checkFraming reads the header fields as they came on the wire.

// Details of the framing problems; fixed, so nothing the client sent is
// echoed.
const (
	detailTransferEncoding = "Transfer-Encoding is accepted only as a single chunked coding on HTTP/1.1."
	detailBothFramings     = "A request may carry Transfer-Encoding or Content-Length, not both."
	detailContentLengths   = "A request may carry at most one Content-Length."
	detailFolded           = "Content-Length and Transfer-Encoding may not be folded over lines."
	detailContentTypes     = "A request may carry at most one Content-Type."
)

// checkFraming refuses a request whose body framing is ambiguous with 400,
// and closes the connection after the answer, so that nothing left of the
// request on the connection is read as another request. Refused: a
// Transfer-Encoding other than one field that is exactly chunked (or any on
// HTTP/1.0), Transfer-Encoding together with Content-Length, and more than
// one Content-Length field. More than one Content-Type is refused too: a
// proxy reading the first would parse the body as another format than
// this server, which kept the last.
func checkFraming(c *fiber.Ctx) error {
	h := &c.Request().Header
	return refuseMalformed(c, framingFault(h.RawHeaders(), h.IsHTTP11()))
}

// framingFault returns what is wrong with the framing fields of raw, the
// header block of a request as it came on the wire, or "" when nothing is.
// A framing field continued on a folded line is wrong too.
func framingFault(raw []byte, http11 bool) string {
	var lengths, encodings, types int
	framing := false // the previous field is Content-Length or Transfer-Encoding
	for {
		var line []byte
		line, raw = cutLine(raw)
		if len(line) == 0 {
			break // the end of the header block, or of raw
		}
		if line[0] == ' ' || line[0] == '\t' {
			if framing {
				return detailFolded
			}
			continue
		}
		key, value, ok := cutField(line)
		framing = false
		switch {
		case !ok:
		case equalFoldASCII(key, "Content-Length"):
			framing = true
			if lengths++; lengths > 1 {
				return detailContentLengths
			}
		case equalFoldASCII(key, "Content-Type"):
			if types++; types > 1 {
				return detailContentTypes
			}
		case equalFoldASCII(key, "Transfer-Encoding"):
			framing = true
			if encodings++; encodings > 1 || !http11 || !equalFoldASCII(value, "chunked") {
				return detailTransferEncoding
			}
		}
	}
	if lengths > 0 && encodings > 0 {
		return detailBothFramings
	}
	return ""
}

// cutLine splits b after its first line, without the line's CR LF.
func cutLine(b []byte) (line, rest []byte) {
	for i, ch := range b {
		if ch == '\n' {
			line, rest = b[:i], b[i+1:]
			if n := len(line); n > 0 && line[n-1] == '\r' {
				line = line[:n-1]
			}
			return line, rest
		}
	}
	return b, nil
}

// cutField splits a header line into its name and its value without the
// surrounding blanks.
func cutField(line []byte) (key, value []byte, ok bool) {
	for i, ch := range line {
		if ch == ':' {
			return line[:i], trimBlanks(line[i+1:]), true
		}
	}
	return nil, nil, false
}

// trimBlanks removes leading and trailing spaces and tabs.
func trimBlanks(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}

// equalFoldASCII reports whether b equals s ignoring ASCII letter case.
func equalFoldASCII(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range len(b) {
		x, y := b[i], s[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
