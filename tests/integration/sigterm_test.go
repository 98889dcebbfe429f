package integration

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/asapjs/fiber-template/internal/testkit"
)

// TestSIGTERMDrains runs cmd/api, holds a connection open mid-request and
// sends SIGTERM: /readyz must turn 503 while the listener still accepts,
// and the connection that never finished must be cut, logged with its
// count, with a non-zero exit.
func TestSIGTERMDrains(t *testing.T) {
	stopsTheBinary(t)
	t.Parallel()
	const delay, timeout = 2 * time.Second, time.Second
	port := testkit.Port(t)
	api := startAPI(t, buildAPI(t), sqliteAPI(t, port, map[string]string{
		"SHUTDOWN_DELAY":   delay.String(),
		"SHUTDOWN_TIMEOUT": timeout.String(),
	}))
	api.WaitOK(t, healthCheck(port))
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	client := &http.Client{Timeout: time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	probe := func(path string) (int, error) {
		res, err := client.Get(base + path)
		if err != nil {
			return 0, err
		}
		res.Body.Close()
		return res.StatusCode, nil
	}
	for _, p := range []string{"/livez", "/readyz"} {
		if status, err := probe(p); err != nil || status != http.StatusOK {
			t.Fatalf("GET %s before SIGTERM = %d, %v; want 200\n%s", p, status, err, api.Output())
		}
	}

	// A client that sent half a request body and stalls.
	slow, err := net.Dial("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	fmt.Fprintf(slow, "POST /api/users HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"email\":")
	time.Sleep(200 * time.Millisecond)

	if err := api.Cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatalf("send SIGTERM: %v", err)
	}
	sent := time.Now()
	var sawNotReady, closed time.Duration
	for closed == 0 && time.Since(sent) < delay+timeout+10*time.Second {
		status, err := probe("/readyz")
		switch {
		case err != nil:
			closed = time.Since(sent)
		case status == http.StatusServiceUnavailable && sawNotReady == 0:
			sawNotReady = time.Since(sent)
		}
		time.Sleep(50 * time.Millisecond)
	}

	t.Run("readyz answers 503 before the listener closes", func(t *testing.T) {
		if sawNotReady == 0 || closed == 0 || sawNotReady >= closed {
			t.Errorf("503 seen after %s, listener closed after %s; want the 503 first\n%s", sawNotReady, closed, api.Output())
		}
		if closed < delay {
			t.Errorf("listener closed %s after SIGTERM, before SHUTDOWN_DELAY %s", closed, delay)
		}
	})

	select {
	case <-api.Done():
	case <-time.After(delay + timeout + 10*time.Second):
		t.Fatalf("still running after SIGTERM\n%s", api.Output())
	}

	t.Run("the stalled connection is cut, logged with its count, and the exit is non-zero", func(t *testing.T) {
		var exit *exec.ExitError
		if !errors.As(api.Err(), &exit) || exit.ExitCode() == 0 {
			t.Errorf("exit %v, want a non-zero status", api.Err())
		}
		out := api.Output()
		if !strings.Contains(out, "cutting the connections still open") || !strings.Contains(out, "connections=1") {
			t.Errorf("no log line cutting 1 connection:\n%s", out)
		}
	})
}
