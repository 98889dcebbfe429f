package clientip

import (
	"fmt"
	"net/netip"
	"strings"
)

// Proxies is a set of trusted proxies: addresses and CIDR ranges. The zero
// Proxies trusts none.
type Proxies struct {
	prefixes []netip.Prefix
}

// ParseProxies parses proxies given as IP addresses or CIDR ranges
// ("10.0.0.0/8", "2001:db8::/32", "127.0.0.1"), as Config.TrustedProxies
// lists them. Blank entries are skipped; an entry that is neither an
// address nor a range is an error. IPv4-mapped IPv6 forms are taken as the
// IPv4 they map.
func ParseProxies(list []string) (Proxies, error) {
	var p Proxies
	for _, s := range list {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		prefix, err := parsePrefix(s)
		if err != nil {
			return Proxies{}, fmt.Errorf("clientip: trusted proxy %q is neither an IP address nor a CIDR range: %w", s, err)
		}
		p.prefixes = append(p.prefixes, prefix)
	}
	return p, nil
}

// Contains reports whether a is one of the proxies. The zero Addr never
// is.
func (p Proxies) Contains(a netip.Addr) bool {
	if !a.IsValid() {
		return false
	}
	a = a.Unmap()
	for _, prefix := range p.prefixes {
		if prefix.Contains(a) {
			return true
		}
	}
	return false
}

// empty reports whether no proxy is trusted.
func (p Proxies) empty() bool { return len(p.prefixes) == 0 }

// parsePrefix parses a CIDR range or a single address (a range of one).
// IPv4-mapped IPv6 forms are taken as the IPv4 they map.
func parsePrefix(s string) (netip.Prefix, error) {
	if strings.Contains(s, "/") {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return netip.Prefix{}, err
		}
		if a := p.Addr(); a.Is4In6() {
			bits := p.Bits() - 96
			if bits < 0 {
				return netip.Prefix{}, fmt.Errorf("an IPv4-mapped range shorter than /96")
			}
			p = netip.PrefixFrom(a.Unmap(), bits)
		}
		return p.Masked(), nil
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Prefix{}, err
	}
	if a.Zone() != "" {
		return netip.Prefix{}, fmt.Errorf("an address with a zone")
	}
	a = a.Unmap()
	return netip.PrefixFrom(a, a.BitLen()), nil
}
