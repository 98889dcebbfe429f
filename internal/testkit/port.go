package testkit

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
)

// Port is FreePort for a test, which fails when no port can be had.
func Port(t testing.TB) int {
	t.Helper()
	port, err := FreePort()
	if err != nil {
		t.Fatal(err)
	}
	return port
}

// FreePort returns a loopback TCP port nothing listens on right now, for a
// process a test starts and that binds it later. The port is drawn below
// the kernel's ephemeral range (net.ipv4.ip_local_port_range), from which
// listeners on port 0 and outgoing connections take theirs, so that none of
// those can take it between now and the bind: with many tests and their
// database connections running at once, one of them sometimes did. Where
// the range cannot be read, the kernel picks the port.
func FreePort() (int, error) {
	low, err := ephemeralLow()
	if err != nil || low < 2048 {
		return kernelPort()
	}
	// The ports from low−12,000 (not under 1024) up to the range.
	base := max(1024, low-12000)
	for range 100 {
		port := base + rand.IntN(low-base)
		ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
		if err != nil {
			continue // taken: another test drew it
		}
		ln.Close()
		return port, nil
	}
	return kernelPort()
}

// ephemeralLow is the first port of the kernel's ephemeral range.
func ephemeralLow() (int, error) {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return 0, err
	}
	fields := strings.Fields(string(b))
	if len(fields) != 2 {
		return 0, errors.New("testkit: ip_local_port_range is not two numbers")
	}
	return strconv.Atoi(fields[0])
}

// kernelPort is a port the kernel picks for a listener on port 0.
func kernelPort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("testkit: find a free port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}
