package testkit

import (
	"context"
	"net"
	"net/http"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

// ServeBinary runs the service binary bin in a temporary directory of t,
// on a free loopback port (HOST and PORT) with env added to the test's
// environment, and returns its base URL, http://127.0.0.1:port, once
// /livez answers 200. The process is stopped when t ends, and its output
// is logged if t failed.
func ServeBinary(t testing.TB, bin string, env ...string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	ln.Close()
	ctx, cancel := context.WithCancel(Context(t))
	cmd := exec.CommandContext(ctx, bin)
	cmd.Dir = t.TempDir()
	cmd.Env = append(append(cmd.Environ(), "HOST=127.0.0.1", "PORT="+port), env...)
	logs := &Buffer{}
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("testkit: start %s: %v", bin, err)
	}
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("the service's output:\n%s", logs)
		}
	})
	base := "http://127.0.0.1:" + port
	for {
		res, err := http.Get(base + "/livez")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return base
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("testkit: %s did not answer /livez: %v\n%s", bin, err, logs)
		case <-time.After(50 * time.Millisecond):
		}
	}
}
