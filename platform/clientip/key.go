package clientip

import (
	"encoding/hex"
	"net/netip"
)

// KeyLen is the length of every Key: 32 hexadecimal digits.
const KeyLen = 2 * 16

// Key returns the canonical throttle key of a client address: always
// KeyLen lowercase hexadecimal digits, the 16 bytes of the address in its
// IPv6 form. An IPv4 address (or an IPv4-mapped IPv6 one) is kept whole;
// an IPv6 address is masked to its /64, the block one subscriber gets, so
// that rotating through it does not buy a fresh budget. The zero Addr (no
// known peer) is all zeros.
//
//	clientip.Key(netip.MustParseAddr("192.0.2.7"))      // "00000000000000000000ffffc0000207"
//	clientip.Key(netip.MustParseAddr("2001:db8::1:2:3")) // "20010db8000000000000000000000000"
func Key(addr netip.Addr) string {
	var b [16]byte
	switch addr = addr.Unmap(); {
	case addr.Is4():
		b = addr.As16() // the IPv4-mapped form ::ffff:a.b.c.d
	case addr.Is6():
		p, _ := addr.WithZone("").Prefix(64)
		b = p.Addr().As16()
	}
	var out [KeyLen]byte
	hex.Encode(out[:], b[:])
	return string(out[:])
}
