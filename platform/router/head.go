package router

import (
	"bytes"
	"net/http"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/problem"
)

// A request head must read the same to every parser on its way, or a
// proxy in front and this server would see different requests (RFC 9112
// §2.2, §3.2, §5): a bare CR that one parser takes for the end of a line
// and another keeps inside a header value ("Foo: a\rContent-Length: 37"
// hides a body from the second, which then reads it as a request of its
// own), a folded line that one joins to the field before it and another
// reads as a field of its own (" Content-Length: 29"), a version other
// than 1.1 and 1.0, a request without Host or with two, a Host that is not
// an authority, control characters in the target or in values. fasthttp
// 1.78 refuses most of these itself, with a detail of its own ("The
// request could not be parsed."), and lets the rest through: folded lines,
// user information in Host (evil@host), and versions such as HTTP/0.9 or
// HTTP/2.0. checkHead refuses all of them from the head as it came on the
// wire (RawHeaders) and the request line fasthttp parsed, so the rule
// holds whatever fasthttp's version does.

// Details of the head problems; fixed, so nothing the client sent is
// echoed.
const (
	detailVersion      = "Only HTTP/1.1 and HTTP/1.0 requests are served."
	detailTarget       = "The request target may not hold a control character or a space."
	detailBareCR       = "A CR in the request head must be followed by LF."
	detailFieldName    = "A header name may hold only the characters of a token."
	detailFieldValue   = "A header value may not hold a control character other than a tab."
	detailNoHost       = "An HTTP/1.1 request must carry Host."
	detailTwoHosts     = "A request may carry at most one Host."
	detailMissingColon = "A header line must hold a name and a colon."
	detailFolded       = "A header field may not continue on a folded line."
	detailHost         = "Host may hold only a host name or address and a port."
	detailTargetHost   = "The request target's authority may hold only a host name or address and a port."
)

// checkHead refuses with 400 a request whose head is malformed in a way
// parsers disagree on, and closes the connection after the answer, so
// nothing left of the request on the connection is read as another: a
// version other than HTTP/1.1 and HTTP/1.0, a control character or a
// space in the request target, a CR not followed by LF anywhere in the
// headers, a folded line, a header name that is not a token, a control
// character other than tab in a header value, no Host on HTTP/1.1 or more
// than one, a Host that is not a host and port, and a body framed
// ambiguously (framing.go). The connection of a chunked request is closed
// after its answer.
func checkHead(c *fiber.Ctx) error {
	h := &c.Request().Header
	detail := lineFault(h.Protocol(), h.RequestURI(), h.IsHTTP11())
	if detail == "" {
		// A request made in process (a benchmark driving the handler) has
		// no raw header block; its Host is the one it set.
		detail = headerFault(h.RawHeaders(), h.IsHTTP11(), h.IsHTTP11() && len(h.Host()) == 0)
	}
	if detail == "" && h.ContentLength() == -1 {
		// A chunked body ends where its chunk lines and trailer say, and
		// fasthttp reads a trailer's lines more loosely than a proxy in
		// front may (a LF alone ends them): nothing after the body is
		// read as a request of its own.
		c.Context().SetConnectionClose()
	}
	return refuseMalformed(c, detail)
}

// refuseMalformed answers a request 400 with detail, closing the
// connection after the answer so that nothing left of the request on it is
// read as another request; with no detail it lets the request pass.
func refuseMalformed(c *fiber.Ctx, detail string) error {
	if detail == "" {
		return nil
	}
	c.Context().SetConnectionClose()
	return problem.New(http.StatusBadRequest, detail)
}

// lineFault returns what is wrong with the version and the target of a
// request line, or "". http11 is what fasthttp made of the version it
// read: an empty one ("GET / \r\n") reads as HTTP/1.1 in proto but not
// in http11.
func lineFault(proto, target []byte, http11 bool) string {
	switch string(proto) {
	case "HTTP/1.1":
		if !http11 {
			return detailVersion
		}
	case "HTTP/1.0":
	default:
		return detailVersion
	}
	for _, ch := range target {
		if ch <= ' ' || ch == 0x7f {
			return detailTarget
		}
	}
	if authority, ok := absoluteAuthority(target); ok && !isHost(authority) {
		// In absolute form the target's authority stands for Host
		// (RFC 9112 §3.2.2), and is held to the same rule.
		return detailTargetHost
	}
	return ""
}

// headerFault returns what is wrong with raw, the header block of a
// request as it came on the wire, or "", in one pass over it. needHost says
// that the request is HTTP/1.1 with no Host parsed: raw must then hold one.
// A fault of the fields themselves comes before one of the body's framing,
// wherever each is in the block.
func headerFault(raw []byte, http11, needHost bool) string {
	hosts := 0
	var framed framing
	for len(raw) > 0 {
		var line []byte
		line, raw = cutLine(raw)
		if bytes.IndexByte(line, '\r') >= 0 {
			return detailBareCR
		}
		if len(line) == 0 {
			break // the end of the header block
		}
		if line[0] == ' ' || line[0] == '\t' {
			// A folded line, which fasthttp joins to the field before it
			// and a proxy may read as a field of its own.
			return detailFolded
		}
		name, value, ok := cutField(line)
		switch {
		case !ok:
			return detailMissingColon
		case !isToken(name):
			return detailFieldName
		case equalFoldASCII(name, "Host"):
			if hosts++; hosts > 1 {
				return detailTwoHosts
			}
			if !isHost(value) {
				return detailHost
			}
		}
		framed.field(name, value, http11)
		if !valueChars.holds(value) {
			return detailFieldValue
		}
	}
	if hosts == 0 && needHost {
		return detailNoHost
	}
	return framed.fault()
}

// isToken reports whether b is a non-empty token.
func isToken(b []byte) bool { return len(b) > 0 && tokenChars.holds(b) }
