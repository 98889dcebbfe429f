package testkit

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/asapjs/fiber-template/platform/servicetest"
)

// Process is a binary a test runs: its output kept, its exit awaited.
type Process struct {
	// Cmd is the started command: signal or kill its Process.
	Cmd    *exec.Cmd
	output servicetest.Buffer
	done   chan struct{}
	err    error
}

// Start runs the binary bin in a temporary directory of t with exactly env
// as its environment. The process is killed if it outlives t, or comes
// close to t's deadline, and its output is logged if t failed.
func Start(t testing.TB, bin string, env []string) *Process {
	t.Helper()
	p := &Process{Cmd: exec.CommandContext(Context(t), bin), done: make(chan struct{})}
	p.Cmd.Dir = t.TempDir()
	p.Cmd.Env = env
	p.Cmd.Stdout, p.Cmd.Stderr = &p.output, &p.output
	if err := p.Cmd.Start(); err != nil {
		t.Fatalf("testkit: start %s: %v", bin, err)
	}
	go func() {
		p.err = p.Cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		p.Stop()
		if t.Failed() {
			t.Logf("the output of %s:\n%s", bin, p.Output())
		}
	})
	return p
}

// Done is closed once the process has exited.
func (p *Process) Done() <-chan struct{} { return p.done }

// Err is how the process exited, once Done is closed.
func (p *Process) Err() error { return p.err }

// Output returns what the process has written so far.
func (p *Process) Output() string { return p.output.String() }

// Stop kills the process, unless it has exited, and waits for its exit.
func (p *Process) Stop() {
	select {
	case <-p.done:
	default:
		_ = p.Cmd.Process.Kill()
		<-p.done
	}
}

// readyWithin bounds how long WaitOK waits.
const readyWithin = 60 * time.Second

// WaitOK polls url until it answers 200, failing t if the process exits
// first or a minute goes by.
func (p *Process) WaitOK(t testing.TB, url string) {
	t.Helper()
	client := &http.Client{Timeout: time.Second}
	deadline := time.After(readyWithin)
	for {
		res, err := client.Get(url)
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return
			}
			err = fmt.Errorf("status %d", res.StatusCode)
		}
		select {
		case <-p.done:
			t.Fatalf("testkit: exited before %s answered 200: %v\n%s", url, p.err, p.Output())
		case <-deadline:
			t.Fatalf("testkit: %s did not answer 200 within %s: %v\n%s", url, readyWithin, err, p.Output())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// ServeBinary runs the service binary bin with Start, on a free loopback
// port (HOST and PORT) with env added to the test's environment, and
// returns its base URL, http://127.0.0.1:port, once /livez answers 200.
func ServeBinary(t testing.TB, bin string, env ...string) string {
	t.Helper()
	p, err := FreePort()
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(p)
	base := "http://127.0.0.1:" + port
	Start(t, bin, append(append(os.Environ(), "HOST=127.0.0.1", "PORT="+port), env...)).WaitOK(t, base+"/livez")
	return base
}
