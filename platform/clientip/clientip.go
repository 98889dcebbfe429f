package clientip

import (
	"bytes"
	"net/netip"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/utils"
)

// localsKey is the c.Locals key of the request's resolver.
type localsKey struct{}

// resolver finds the client address of a request under one Config.
type resolver struct {
	trusted Proxies
	header  string
}

// New returns the middleware that makes the client address of every
// request available to later handlers through From. It only records
// where to look (a pointer in c.Locals), so it costs next to nothing; the
// address is worked out when From asks. A TrustedProxies entry that is
// neither an address nor a CIDR range is an error.
func New(cfg Config) (fiber.Handler, error) {
	r, err := newResolver(cfg)
	if err != nil {
		return nil, err
	}
	return func(c *fiber.Ctx) error {
		c.Locals(localsKey{}, r)
		return c.Next()
	}, nil
}

// newResolver parses the trusted proxies of cfg.
func newResolver(cfg Config) (*resolver, error) {
	cfg = configDefault(cfg)
	trusted, err := ParseProxies(cfg.TrustedProxies)
	if err != nil {
		return nil, err
	}
	return &resolver{header: cfg.Header, trusted: trusted}, nil
}

// From returns the client address of the request: with no trusted proxy
// (or without New's middleware before the handler) the TCP peer; from a
// trusted peer, the right-most address of the header that is not a
// trusted proxy, walking every line of the header from the last. A
// malformed entry stops the walk at the last trusted hop, which is then
// the client; so does a header made only of trusted proxies (the
// left-most of them). IPv4-mapped IPv6 addresses come back as IPv4.
//
// It allocates nothing when no proxy is trusted. The zero Addr means the
// peer address is unknown (not a TCP connection).
func From(c *fiber.Ctx) netip.Addr {
	peer := peerOf(c)
	r, _ := c.Locals(localsKey{}).(*resolver)
	if r == nil || r.trusted.empty() || !r.trusted.Contains(peer) {
		return peer
	}
	client := peer
	lines := c.Request().Header.PeekAll(r.header)
	for i := len(lines) - 1; i >= 0; i-- {
		rest := lines[i]
		for len(rest) > 0 {
			var entry []byte
			if j := bytes.LastIndexByte(rest, ','); j >= 0 {
				entry, rest = rest[j+1:], rest[:j]
			} else {
				entry, rest = rest, nil
			}
			entry = bytes.TrimSpace(entry)
			if len(entry) == 0 {
				continue // "a, , b" or a trailing comma: nothing written there
			}
			a, ok := parseEntry(entry)
			if !ok {
				return client
			}
			if !r.trusted.Contains(a) {
				return a
			}
			client = a
		}
	}
	return client
}

// peerOf is the TCP peer of the request, IPv4-mapped addresses unmapped.
func peerOf(c *fiber.Ctx) netip.Addr {
	a, ok := netip.AddrFromSlice(c.Context().RemoteIP())
	if !ok {
		return netip.Addr{}
	}
	return a.Unmap()
}

// parseEntry parses one address of the header: a bare IPv4 or IPv6
// address, or one with a port ("1.2.3.4:80", "[2001:db8::1]:443") as
// some proxies write. Zones are refused: no proxy writes one.
func parseEntry(b []byte) (netip.Addr, bool) {
	// The string does not outlive the call: netip copies what it keeps.
	s := utils.UnsafeString(b)
	a, err := netip.ParseAddr(s)
	if err != nil {
		ap, err := netip.ParseAddrPort(s)
		if err != nil {
			return netip.Addr{}, false
		}
		a = ap.Addr()
	}
	if a.Zone() != "" {
		return netip.Addr{}, false
	}
	return a.Unmap(), true
}
