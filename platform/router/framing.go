package router

import "bytes"

// A request's body is framed by Content-Length or by chunked
// Transfer-Encoding, never by both and never by a field two parsers could
// read differently: a proxy in front that frames the body one way and this
// server another way would let a client hide a second request inside the
// body of the first (request smuggling, RFC 9112 §6.1 and §6.3). fasthttp
// 1.78 lets several Content-Length fields, a Transfer-Encoding other than
// chunked and one beside Content-Length reach the handler, so checkHead
// reads the header fields as they came on the wire.

// Details of the framing problems; fixed, so nothing the client sent is
// echoed.
const (
	detailTransferEncoding = "Transfer-Encoding is accepted only as a single chunked coding on HTTP/1.1."
	detailBothFramings     = "A request may carry Transfer-Encoding or Content-Length, not both."
	detailContentLengths   = "A request may carry at most one Content-Length."
	detailContentTypes     = "A request may carry at most one Content-Type."
)

// framing tallies the fields of a request's head that frame its body, as
// headerFault reads them off the wire, and keeps the first fault among
// them. Refused: a Transfer-Encoding other than one field that is exactly
// chunked (or any on HTTP/1.0), Transfer-Encoding together with
// Content-Length, and more than one Content-Length field. More than one
// Content-Type is refused too: a proxy reading the first would parse the
// body as another format than this server, which kept the last.
type framing struct {
	lengths, encodings, types int
	first                     string
}

// field tallies the field name: value.
func (f *framing) field(name, value []byte, http11 bool) {
	switch {
	case equalFoldASCII(name, "Content-Length"):
		if f.lengths++; f.lengths > 1 {
			f.refuse(detailContentLengths)
		}
	case equalFoldASCII(name, "Content-Type"):
		if f.types++; f.types > 1 {
			f.refuse(detailContentTypes)
		}
	case equalFoldASCII(name, "Transfer-Encoding"):
		if f.encodings++; f.encodings > 1 || !http11 || !equalFoldASCII(value, "chunked") {
			f.refuse(detailTransferEncoding)
		}
	}
}

// refuse keeps detail unless a fault came before it.
func (f *framing) refuse(detail string) {
	if f.first == "" {
		f.first = detail
	}
}

// fault is the first fault of the framing fields, or "" when there is none.
func (f *framing) fault() string {
	if f.first == "" && f.lengths > 0 && f.encodings > 0 {
		return detailBothFramings
	}
	return f.first
}

// cutLine splits b after its first line, without the line's CR LF.
func cutLine(b []byte) (line, rest []byte) {
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		return b, nil
	}
	line, rest = b[:i], b[i+1:]
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line, rest
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
