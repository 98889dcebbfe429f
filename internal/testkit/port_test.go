package testkit

import (
	"net"
	"strconv"
	"testing"
)

// TestFreePortIsBelowTheEphemeralRange: the ports FreePort gives can be
// bound, and none is one that a listener on port 0 or an outgoing
// connection could take before the process binds it.
func TestFreePortIsBelowTheEphemeralRange(t *testing.T) {
	t.Parallel()
	low, err := ephemeralLow()
	if err != nil {
		t.Skipf("no ephemeral range to stay out of here: %v", err)
	}
	for range 50 {
		port, err := FreePort()
		if err != nil {
			t.Fatal(err)
		}
		if port < 1024 || port >= low {
			t.Fatalf("port %d, want one from 1024 up to the ephemeral range's first, %d", port, low)
		}
		ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
		if err != nil {
			t.Fatalf("port %d cannot be bound: %v", port, err)
		}
		ln.Close()
	}
}
