package clientip_test

import (
	"net"
	"net/netip"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

	"github.com/asapjs/fiber-template/platform/clientip"
)

// resolve runs a request from peer with the header lines of name through
// New(cfg) (or no middleware when cfg is nil) and returns From's answer.
func resolve(t *testing.T, cfg *clientip.Config, peer string, name string, lines ...string) string {
	t.Helper()
	app := fiber.New()
	if cfg != nil {
		h, err := clientip.New(*cfg)
		if err != nil {
			t.Fatal(err)
		}
		app.Use(h)
	}
	app.Get("/", func(c *fiber.Ctx) error { return c.SendString(clientip.From(c).String()) })
	var req fasthttp.Request
	req.SetRequestURI("/")
	for _, l := range lines {
		req.Header.Add(name, l)
	}
	var fctx fasthttp.RequestCtx
	fctx.Init(&req, &net.TCPAddr{IP: net.ParseIP(peer), Port: 40000}, nil)
	app.Handler()(&fctx)
	if fctx.Response.StatusCode() != fiber.StatusOK {
		t.Fatalf("status %d: %s", fctx.Response.StatusCode(), fctx.Response.Body())
	}
	return string(fctx.Response.Body())
}

func TestFrom(t *testing.T) {
	t.Parallel()
	proxies := &clientip.Config{TrustedProxies: []string{"10.0.0.0/8", " 2001:db8:1::/48", "192.0.2.1", ""}}
	const xff = "X-Forwarded-For"
	cases := []struct {
		name  string
		cfg   *clientip.Config
		peer  string
		lines []string
		want  string
	}{
		{"no trusted proxy: the header is ignored", &clientip.Config{}, "203.0.113.9", []string{"1.1.1.1"}, "203.0.113.9"},
		{"no middleware: the peer", nil, "203.0.113.9", []string{"1.1.1.1"}, "203.0.113.9"},
		{"an untrusted peer's header is ignored", proxies, "203.0.113.9", []string{"1.1.1.1"}, "203.0.113.9"},
		{"a trusted peer without the header is the client", proxies, "10.0.0.1", nil, "10.0.0.1"},
		{"the right-most address is the client", proxies, "10.0.0.1", []string{"1.1.1.1, 2.2.2.2"}, "2.2.2.2"},
		{"trusted hops on the right are skipped", proxies, "10.0.0.1", []string{"1.1.1.1, 2.2.2.2, 10.0.0.5,192.0.2.1"}, "2.2.2.2"},
		{"every header line counts, the last first", proxies, "10.0.0.1", []string{"1.1.1.1", "2.2.2.2, 10.1.1.1"}, "2.2.2.2"},
		{"the walk goes on into earlier lines", proxies, "10.0.0.1", []string{"9.9.9.9", "10.0.0.3"}, "9.9.9.9"},
		{"a malformed entry stops at the last trusted hop", proxies, "10.0.0.1", []string{"1.1.1.1, garbage, 10.0.0.7"}, "10.0.0.7"},
		{"a malformed right-most entry leaves the peer", proxies, "10.0.0.1", []string{"1.1.1.1, unknown"}, "10.0.0.1"},
		{"only trusted hops: the left-most", proxies, "10.0.0.1", []string{"10.0.0.9, 10.0.0.8"}, "10.0.0.9"},
		{"empty entries are skipped", proxies, "10.0.0.1", []string{"1.1.1.1,, ", " "}, "1.1.1.1"},
		{"an address with a port", proxies, "10.0.0.1", []string{"1.2.3.4:8080"}, "1.2.3.4"},
		{"a bracketed IPv6 address with a port", proxies, "10.0.0.1", []string{"[2001:db8:2::5]:443"}, "2001:db8:2::5"},
		{"an IPv6 client behind an IPv6 proxy", proxies, "2001:db8:1::10", []string{"2001:db8:ffff::1"}, "2001:db8:ffff::1"},
		{"a v4-mapped peer and entry are IPv4", proxies, "::ffff:10.0.0.1", []string{"::ffff:1.2.3.4"}, "1.2.3.4"},
		{"a zone is malformed", proxies, "10.0.0.1", []string{"fe80::1%eth0"}, "10.0.0.1"},
		{"a long forged chain does not matter", proxies, "10.0.0.1", []string{strings.Repeat("6.6.6.6, ", 50) + "7.7.7.7"}, "7.7.7.7"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := resolve(t, tc.cfg, tc.peer, xff, tc.lines...); got != tc.want {
				t.Errorf("From = %s, want %s", got, tc.want)
			}
		})
	}
	t.Run("another header", func(t *testing.T) {
		t.Parallel()
		cfg := &clientip.Config{TrustedProxies: []string{"10.0.0.0/8"}, Header: "X-Real-Ip"}
		if got := resolve(t, cfg, "10.0.0.1", "X-Real-Ip", "4.4.4.4"); got != "4.4.4.4" {
			t.Errorf("From = %s, want 4.4.4.4", got)
		}
		if got := resolve(t, cfg, "10.0.0.1", xff, "4.4.4.4"); got != "10.0.0.1" {
			t.Errorf("From read X-Forwarded-For: %s", got)
		}
	})
}

func TestNewRefusesBadProxies(t *testing.T) {
	t.Parallel()
	cases := []struct {
		proxy string
		ok    bool
	}{
		{"10.0.0.0/8", true},
		{"127.0.0.1", true},
		{"::1", true},
		{"2001:db8::/32", true},
		{"::ffff:10.0.0.0/104", true},
		{"10.0.0.0/33", false},
		{"10.0.0.300", false},
		{"proxy.internal", false},
		{"fe80::1%eth0", false},
		{"::ffff:0.0.0.0/90", false},
	}
	for _, tc := range cases {
		t.Run(tc.proxy, func(t *testing.T) {
			t.Parallel()
			_, err := clientip.New(clientip.Config{TrustedProxies: []string{tc.proxy}})
			if (err == nil) != tc.ok {
				t.Errorf("New with %q: error %v, want ok %v", tc.proxy, err, tc.ok)
			}
		})
	}
}

func TestKey(t *testing.T) {
	t.Parallel()
	cases := []struct {
		addr netip.Addr
		want string
	}{
		{netip.MustParseAddr("192.0.2.7"), "00000000000000000000ffffc0000207"},
		{netip.MustParseAddr("::ffff:192.0.2.7"), "00000000000000000000ffffc0000207"},
		{netip.MustParseAddr("2001:db8::1:2:3"), "20010db8000000000000000000000000"},
		{netip.MustParseAddr("2001:db8::ffff:ffff:ffff:ffff"), "20010db8000000000000000000000000"},
		{netip.MustParseAddr("2001:db8:0:1::"), "20010db8000000010000000000000000"},
		{netip.MustParseAddr("fe80::1%eth0"), "fe800000000000000000000000000000"},
		{netip.Addr{}, "00000000000000000000000000000000"},
	}
	for _, tc := range cases {
		t.Run(tc.addr.String(), func(t *testing.T) {
			t.Parallel()
			got := clientip.Key(tc.addr)
			if got != tc.want || len(got) != clientip.KeyLen {
				t.Errorf("Key(%s) = %q, want %q (%d characters)", tc.addr, got, tc.want, clientip.KeyLen)
			}
		})
	}
}

func TestFromAllocatesNothing(t *testing.T) {
	cases := []struct {
		name    string
		proxies []string
		header  string
	}{
		{"no trusted proxy", nil, "1.1.1.1, 2.2.2.2"},
		{"a trusted peer", []string{"10.0.0.0/8"}, "1.1.1.1, 2.2.2.2, 10.0.0.2"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h, err := clientip.New(clientip.Config{TrustedProxies: tc.proxies})
			if err != nil {
				t.Fatal(err)
			}
			var allocs float64
			app := fiber.New()
			app.Use(h)
			app.Get("/", func(c *fiber.Ctx) error {
				want := clientip.From(c)
				allocs = testing.AllocsPerRun(100, func() {
					if got := clientip.From(c); got != want {
						t.Fatalf("From changed: %s, then %s", want, got)
					}
				})
				return nil
			})
			var fctx fasthttp.RequestCtx
			var req fasthttp.Request
			req.SetRequestURI("/")
			req.Header.Set(fiber.HeaderXForwardedFor, tc.header)
			fctx.Init(&req, &net.TCPAddr{IP: net.IPv4(10, 0, 0, 1)}, nil)
			app.Handler()(&fctx)
			if allocs != 0 {
				t.Errorf("From allocates %.1f times per request, want 0", allocs)
			}
		})
	}
}
