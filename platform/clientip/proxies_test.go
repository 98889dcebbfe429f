package clientip_test

import (
	"net/netip"
	"testing"

	"github.com/asapjs/fiber-template/platform/clientip"
)

func TestProxiesContains(t *testing.T) {
	t.Parallel()
	proxies, err := clientip.ParseProxies([]string{"10.0.0.0/8", " ", "::ffff:192.0.2.0/120", "2001:db8::1"})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		addr string
		want bool
	}{
		{"10.1.2.3", true},
		{"::ffff:10.1.2.3", true}, // an IPv4-mapped peer is its IPv4 address
		{"192.0.2.200", true},     // a mapped range is the IPv4 range it maps
		{"2001:db8::1", true},
		{"2001:db8::2", false},
		{"11.0.0.1", false},
	}
	for _, tc := range cases {
		if got := proxies.Contains(netip.MustParseAddr(tc.addr)); got != tc.want {
			t.Errorf("Contains(%s) = %t, want %t", tc.addr, got, tc.want)
		}
	}
	if proxies.Contains(netip.Addr{}) {
		t.Error("the zero Addr is a trusted proxy")
	}
	var none clientip.Proxies
	if none.Contains(netip.MustParseAddr("10.1.2.3")) {
		t.Error("the zero Proxies trusts an address")
	}
	if _, err := clientip.ParseProxies([]string{"10.0.0.0/8", "proxy.internal"}); err == nil {
		t.Error("ParseProxies accepted proxy.internal")
	}
}
