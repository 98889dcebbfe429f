package integration

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asapjs/fiber-template/internal/testkit"
)

// The flood: connections from floodSource, each sending part of a request
// line and holding it, while livez is asked from watchSource on a fresh
// connection every watchEvery.
const (
	floodSource  = "127.0.0.1"
	watchSource  = "127.0.0.2"
	floodFor     = 4 * time.Second // under READ_HEADER_TIMEOUT: nothing held is let go meanwhile
	watchEvery   = 100 * time.Millisecond
	answerWithin = time.Second
)

func TestConnectionFlood(t *testing.T) {
	runsTheBinary(t)
	if runtime.GOOS != "linux" {
		testkit.Skip(t, "floods from 127.0.0.1 and watches from 127.0.0.2, which only Linux routes to loopback unconfigured")
	}
	t.Parallel()
	bin := buildAPI(t)

	tests := []struct {
		name       string
		openFiles  int
		config     map[string]string
		perAddress int // the cap the flood runs into
	}{
		{"caps set under an open-files limit of 256", 256,
			map[string]string{"MAX_CONNS": "150", "MAX_CONNS_PER_ADDRESS": "40"}, 40},
		{"the defaults under an open-files limit of 1024: three quarters of it, an eighth of that per address", 1024,
			nil, 96},
	}
	for _, tt := range tests {
		t.Run(tt.name+": one address past its cap starves no other, and the service serves after", func(t *testing.T) {
			t.Parallel()
			port := testkit.Port(t)
			api := startAPI(t, testkit.WithOpenFiles(t, bin, tt.openFiles), sqliteAPI(t, port, tt.config))
			api.WaitOK(t, livez(port))

			f := flood(t, port, floodFor, 0)
			slowest, failures := watch(port, f.done)
			f.wait()
			if failures != nil {
				t.Errorf("/livez from %s during the flood: %v", watchSource, failures)
			}
			if slowest > answerWithin {
				t.Errorf("/livez from %s took %s during the flood, want under %s", watchSource, slowest, answerWithin)
			}
			held := f.open()
			t.Logf("the flood holds %d connections, %d were refused; /livez answered within %s", held, f.refused.Load(), slowest)
			if f.refused.Load() == 0 {
				t.Errorf("no connection of the flood was refused: it never reached the cap of %d", tt.perAddress)
			}
			if held > tt.perAddress {
				t.Errorf("the flood holds %d connections from one address, over the cap of %d", held, tt.perAddress)
			}
			f.release()
			servesAfterTheFlood(t, api, port)
		})
	}

	t.Run("caps above an open-files limit of 256: accept waits out EMFILE and the service serves after", func(t *testing.T) {
		t.Parallel()
		port := testkit.Port(t)
		api := startAPI(t, testkit.WithOpenFiles(t, bin, 256), sqliteAPI(t, port, map[string]string{
			"MAX_CONNS": "5000", "MAX_CONNS_PER_ADDRESS": "5000",
		}))
		api.WaitOK(t, livez(port))
		// Twice the open-files limit: the process runs out of files.
		f := flood(t, port, floodFor, 512)
		f.wait()
		select {
		case <-api.Done():
			t.Fatalf("the process exited during the flood: %v", api.Err())
		case <-time.After(time.Second):
		}
		f.release()
		servesAfterTheFlood(t, api, port)
	})
}

// livez is the URL of the liveness probe of a binary on loopback port.
func livez(port int) string { return fmt.Sprintf("http://127.0.0.1:%d/livez", port) }

// floodRun is a flood under way.
type floodRun struct {
	done    chan struct{} // closed when the flood stops opening connections
	group   sync.WaitGroup
	mu      sync.Mutex
	conns   []net.Conn // held open
	held    atomic.Int64
	refused atomic.Int64
}

// flood opens connections to port from floodSource for d with a few
// dialers, each sending part of a request line; it keeps those the service
// does not answer and close within 50ms, and counts those it does. With
// most > 0 it stops opening connections once it keeps that many (the
// kernel queues what the service does not accept).
func flood(t *testing.T, port int, d time.Duration, most int) *floodRun {
	t.Helper()
	f := &floodRun{done: make(chan struct{})}
	t.Cleanup(f.release)
	stop := time.After(d)
	go func() { <-stop; close(f.done) }()
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	dialer := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(floodSource)}, Timeout: time.Second}
	const dialers = 16
	for range dialers {
		f.group.Go(func() {
			for {
				select {
				case <-f.done:
					return
				default:
				}
				if most > 0 && f.held.Load() >= int64(most) {
					time.Sleep(10 * time.Millisecond)
					continue
				}
				c, err := dialer.Dial("tcp", addr)
				if err != nil {
					continue // a full queue: try again
				}
				if _, err := io.WriteString(c, "GET /livez HTTP/1.1\r\nHost: flood\r\nX-Pad: "); err != nil {
					c.Close()
					f.refused.Add(1)
					continue
				}
				// A refused connection is answered and closed at once.
				_ = c.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
				var one [1]byte
				if _, err := c.Read(one[:]); !isTimeout(err) {
					c.Close()
					f.refused.Add(1)
					continue
				}
				f.mu.Lock()
				f.conns = append(f.conns, c)
				f.mu.Unlock()
				f.held.Add(1)
			}
		})
	}
	return f
}

// wait waits until the flood stops opening connections.
func (f *floodRun) wait() { f.group.Wait() }

// open returns how many of the connections the flood kept the service
// still holds open: one it closed since reads its end at once, a held one
// reads nothing before the deadline.
func (f *floodRun) open() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	var n atomic.Int64
	var reads sync.WaitGroup
	deadline := time.Now().Add(500 * time.Millisecond)
	for _, c := range f.conns {
		reads.Go(func() {
			_ = c.SetReadDeadline(deadline)
			var one [1]byte
			if _, err := c.Read(one[:]); isTimeout(err) {
				n.Add(1)
			}
		})
	}
	reads.Wait()
	return int(n.Load())
}

// release closes every connection the flood holds.
func (f *floodRun) release() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.conns {
		c.Close()
	}
	f.conns = nil
}

// isTimeout reports whether err is a read deadline passing.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// watch asks /livez from watchSource on a new connection every
// watchEvery until done is closed, and returns the slowest answer and the
// failures, each bounded by answerWithin.
func watch(port int, done <-chan struct{}) (slowest time.Duration, failures error) {
	client := &http.Client{
		Timeout: answerWithin,
		Transport: &http.Transport{
			DialContext:       (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(watchSource)}}).DialContext,
			DisableKeepAlives: true,
		},
	}
	tick := time.NewTicker(watchEvery)
	defer tick.Stop()
	for {
		select {
		case <-done:
			return slowest, failures
		case <-tick.C:
		}
		start := time.Now()
		res, err := client.Get(livez(port))
		if err == nil {
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusOK {
				err = fmt.Errorf("status %d", res.StatusCode)
			}
		}
		slowest = max(slowest, time.Since(start))
		if err != nil {
			failures = errors.Join(failures, fmt.Errorf("after %s: %w", time.Since(start).Round(time.Millisecond), err))
		}
	}
}

// servesAfterTheFlood checks that the process is still running and that
// /livez answers from the flood's own address within a few seconds.
func servesAfterTheFlood(t *testing.T, api *testkit.Process, port int) {
	t.Helper()
	client := &http.Client{Timeout: answerWithin}
	deadline := time.Now().Add(5 * time.Second)
	for {
		select {
		case <-api.Done():
			t.Fatalf("the process exited: %v", api.Err())
		default:
		}
		res, err := client.Get(livez(port))
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return
			}
			err = fmt.Errorf("status %d", res.StatusCode)
		}
		if time.Now().After(deadline) {
			t.Fatalf("/livez after the flood: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
