package connlimit_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/asapjs/fiber-template/platform/connlimit"
	"github.com/asapjs/fiber-template/platform/problem"
)

// fakeConn is a connection from addr that records what is written to it
// and whether it was closed.
type fakeConn struct {
	net.Conn // nil: only the methods below are called
	addr     net.Addr
	written  strings.Builder
	closed   atomic.Int32
}

// from is a connection from the IP address ip.
func from(ip string) *fakeConn {
	return &fakeConn{addr: &net.TCPAddr{IP: net.ParseIP(ip), Port: 40000}}
}

func (c *fakeConn) RemoteAddr() net.Addr             { return c.addr }
func (c *fakeConn) Write(b []byte) (int, error)      { return c.written.Write(b) }
func (c *fakeConn) SetWriteDeadline(time.Time) error { return nil }
func (c *fakeConn) Close() error                     { c.closed.Add(1); return nil }

// refused reports whether the listener answered c and closed it.
func (c *fakeConn) refused() bool { return c.closed.Load() > 0 && c.written.Len() > 0 }

// fakeListener returns the connections and errors of its script in turn,
// then repeats its last entry; Close makes it return net.ErrClosed.
type fakeListener struct {
	mu        sync.Mutex
	script    []any // net.Conn or error
	n         int
	closeOnce sync.Once
	closed    chan struct{}
}

// newFake is a listener that plays script.
func newFake(script ...any) *fakeListener {
	return &fakeListener{script: script, closed: make(chan struct{})}
}

func (l *fakeListener) Accept() (net.Conn, error) {
	select {
	case <-l.closed:
		return nil, net.ErrClosed
	default:
	}
	l.mu.Lock()
	next := l.script[min(l.n, len(l.script)-1)]
	l.n++
	l.mu.Unlock()
	if err, ok := next.(error); ok {
		return nil, err
	}
	return next.(net.Conn), nil
}

func (l *fakeListener) Addr() net.Addr { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080} }
func (l *fakeListener) Close() error   { l.closeOnce.Do(func() { close(l.closed) }); return nil }

// calls is how many times Accept was called.
func (l *fakeListener) calls() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.n
}

// acceptErr is the error accept4 fails with for errno.
func acceptErr(errno syscall.Errno) error {
	return &net.OpError{Op: "accept", Net: "tcp", Err: os.NewSyscallError("accept4", errno)}
}

// limited wraps ln under cfg, logging nothing unless cfg has a logger.
func limited(t *testing.T, ln net.Listener, cfg connlimit.Config) *connlimit.Listener {
	t.Helper()
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	l, err := connlimit.New(ln, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestAcceptWaitsOutALackOfFiles(t *testing.T) {
	t.Parallel()
	for _, errno := range []syscall.Errno{syscall.EMFILE, syscall.ENFILE, syscall.ENOBUFS, syscall.ENOMEM} {
		t.Run(errno.Error()+" is retried after growing pauses, never returned", func(t *testing.T) {
			t.Parallel()
			want := from("192.0.2.1")
			fake := newFake(acceptErr(errno), acceptErr(errno), acceptErr(errno), acceptErr(errno), want)
			l := limited(t, fake, connlimit.Config{})
			start := time.Now()
			c, err := l.Accept()
			if err != nil {
				t.Fatalf("Accept: %v, want the connection after the failures", err)
			}
			if c.RemoteAddr() != want.addr {
				t.Fatalf("Accept returned a connection from %v", c.RemoteAddr())
			}
			// 5 + 10 + 20 + 40 ms, as net/http's server pauses.
			if took := time.Since(start); took < 75*time.Millisecond {
				t.Errorf("four failures took %s, want pauses of at least 75ms in all", took)
			}
		})
	}
}

func TestAcceptSkipsAConnectionThatFailedBeforeItWasAccepted(t *testing.T) {
	t.Parallel()
	want := from("192.0.2.1")
	fake := newFake(acceptErr(syscall.ECONNABORTED), acceptErr(syscall.EPROTO), want)
	l := limited(t, fake, connlimit.Config{})
	c, err := l.Accept()
	if err != nil || c.RemoteAddr() != want.addr {
		t.Fatalf("Accept: %v, %v; want the connection after the failed ones", c, err)
	}
}

func TestAcceptReturnsAFinalError(t *testing.T) {
	t.Parallel()
	broken := errors.New("the listener broke")
	l := limited(t, newFake(broken), connlimit.Config{})
	if _, err := l.Accept(); !errors.Is(err, broken) {
		t.Fatalf("Accept: %v, want %v", err, broken)
	}
}

func TestCloseEndsAWaitAtOnce(t *testing.T) {
	t.Parallel()
	fake := newFake(acceptErr(syscall.EMFILE))
	l := limited(t, fake, connlimit.Config{})
	done := make(chan error, 1)
	go func() { _, err := l.Accept(); done <- err }()
	// Let the pauses grow past what Close should wait for.
	for fake.calls() < 9 { // 5ms … 640ms: the next pause is a second
		time.Sleep(5 * time.Millisecond)
	}
	closed := time.Now()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if !errors.Is(err, net.ErrClosed) {
			t.Errorf("Accept: %v, want net.ErrClosed", err)
		}
		if took := time.Since(closed); took > 200*time.Millisecond {
			t.Errorf("Accept returned %s after Close", took)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("Accept still waiting 3s after Close")
	}
}

// acceptAll accepts every connection of conns in turn through l and
// returns those admitted.
func acceptAll(t *testing.T, conns []*fakeConn, cfg connlimit.Config) (*connlimit.Listener, []net.Conn) {
	t.Helper()
	script := make([]any, 0, len(conns)+1)
	for _, c := range conns {
		script = append(script, c)
	}
	fake := newFake(append(script, net.ErrClosed)...)
	l := limited(t, fake, cfg)
	var admitted []net.Conn
	for {
		c, err := l.Accept()
		if err != nil {
			return l, admitted
		}
		admitted = append(admitted, c)
	}
}

func TestCaps(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		cfg     connlimit.Config
		peers   []string
		refused []int // indexes of the peers refused
	}{
		{"one address gets PerAddress connections, the next is refused",
			connlimit.Config{Total: 10, PerAddress: 2},
			[]string{"192.0.2.1", "192.0.2.1", "192.0.2.1", "192.0.2.2"}, []int{2}},
		{"an IPv4-mapped IPv6 peer is its IPv4 address",
			connlimit.Config{Total: 10, PerAddress: 1},
			[]string{"192.0.2.1", "::ffff:192.0.2.1"}, []int{1}},
		{"an IPv6 /64 is one client",
			connlimit.Config{Total: 10, PerAddress: 2},
			[]string{"2001:db8::1", "2001:db8::2:3", "2001:db8::ffff", "2001:db8:0:1::1"}, []int{2}},
		{"every address together gets Total connections",
			connlimit.Config{Total: 3, PerAddress: 2},
			[]string{"192.0.2.1", "192.0.2.2", "192.0.2.3", "192.0.2.4"}, []int{3}},
		{"a trusted proxy is capped by Total only",
			connlimit.Config{Total: 4, PerAddress: 1, TrustedProxies: []string{"10.0.0.0/8"}},
			[]string{"10.0.0.5", "10.0.0.5", "10.0.0.5", "192.0.2.1", "10.0.0.6"}, []int{4}},
		{"without Total and PerAddress, the defaults let one address hold many",
			connlimit.Config{},
			[]string{"192.0.2.1", "192.0.2.1", "192.0.2.1", "192.0.2.1"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			conns := make([]*fakeConn, len(tt.peers))
			for i, p := range tt.peers {
				conns[i] = from(p)
			}
			l, admitted := acceptAll(t, conns, tt.cfg)
			if got, want := len(admitted), len(conns)-len(tt.refused); got != want || l.Open() != want {
				t.Errorf("admitted %d (Open %d), want %d", got, l.Open(), want)
			}
			for i, c := range conns {
				wantRefused := false
				for _, r := range tt.refused {
					wantRefused = wantRefused || r == i
				}
				if c.refused() != wantRefused {
					t.Errorf("connection %d from %s: refused %t, want %t", i, tt.peers[i], c.refused(), wantRefused)
				}
			}
		})
	}
}

func TestAClosedConnectionFreesItsSlotOnce(t *testing.T) {
	t.Parallel()
	a, b, c, d := from("192.0.2.1"), from("192.0.2.1"), from("192.0.2.1"), from("192.0.2.1")
	other := from("192.0.2.9")
	l := limited(t, newFake(a, b, c, d, other, net.ErrClosed), connlimit.Config{Total: 10, PerAddress: 2})
	first, _ := l.Accept()
	if _, err := l.Accept(); err != nil {
		t.Fatal(err)
	}
	// Closed twice, it frees one slot: c is admitted, d refused.
	_ = first.Close()
	_ = first.Close()
	if got, err := l.Accept(); err != nil || got.RemoteAddr() != c.addr {
		t.Fatalf("Accept after a close: %v %v, want c", got, err)
	}
	if got, err := l.Accept(); err != nil || got.RemoteAddr() != other.addr || !d.refused() {
		t.Fatalf("Accept: %v %v (d refused %t); want d refused, then the other address", got, err, d.refused())
	}
	if got := l.Open(); got != 3 {
		t.Errorf("Open = %d, want 3", got)
	}
}

func TestARefusedConnectionIsAnswered503(t *testing.T) {
	t.Parallel()
	over := from("192.0.2.1")
	acceptAll(t, []*fakeConn{from("192.0.2.1"), over}, connlimit.Config{Total: 10, PerAddress: 1})
	res, err := http.ReadResponse(bufio.NewReader(strings.NewReader(over.written.String())), nil)
	if err != nil {
		t.Fatalf("the answer %q is not HTTP: %v", over.written.String(), err)
	}
	body, _ := io.ReadAll(res.Body)
	var p problem.Problem
	if err := json.Unmarshal(body, &p); err != nil {
		t.Fatalf("body %s: %v", body, err)
	}
	if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Content-Type") != problem.ContentType ||
		!res.Close || res.Header.Get("Retry-After") == "" {
		t.Errorf("answer %d %v %s, want a 503 problem with Retry-After that closes", res.StatusCode, res.Header, body)
	}
	if p.Status != http.StatusServiceUnavailable || p.Code != "too_many_connections" || p.Type != problem.TypeURI(p.Code) ||
		p.Title != "Too many connections" || p.Detail == "" || p.Detail == p.Title {
		t.Errorf("problem %+v, want the declared too_many_connections with a detail of its own", p)
	}
}

func TestDefaultLimits(t *testing.T) {
	t.Parallel()
	tests := []struct {
		openFiles         uint64
		total, perAddress int
	}{
		{1024, 768, 96},
		{256, 192, 24},
		{65536, connlimit.MaxDefaultTotal, connlimit.MaxDefaultTotal / 8},
		{0, connlimit.MaxDefaultTotal, connlimit.MaxDefaultTotal / 8},
		{4, 3, 1},
		{1, 1, 1},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("an open-files limit of %d", tt.openFiles), func(t *testing.T) {
			t.Parallel()
			total, per := connlimit.DefaultLimits(tt.openFiles)
			if total != tt.total || per != tt.perAddress {
				t.Errorf("DefaultLimits(%d) = %d, %d; want %d, %d", tt.openFiles, total, per, tt.total, tt.perAddress)
			}
		})
	}
}

func TestNewRefusesAMalformedProxy(t *testing.T) {
	t.Parallel()
	if _, err := connlimit.New(newFake(net.ErrClosed), connlimit.Config{TrustedProxies: []string{"10.0.0.0/33"}}); err == nil {
		t.Fatal("New accepted the trusted proxy 10.0.0.0/33")
	}
}

// dialFrom opens a connection to addr from the loopback address source.
func dialFrom(t *testing.T, source, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(source)}, Timeout: 5 * time.Second}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Skipf("dial from %s: %v (the system does not route 127/8 to loopback)", source, err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestOverTCPAnAddressPastItsCapIsRefusedAndAnotherServed(t *testing.T) {
	t.Parallel()
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := limited(t, tcp, connlimit.Config{Total: 10, PerAddress: 2})
	t.Cleanup(func() { l.Close() })
	accepted := make(chan net.Conn, 10)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				close(accepted)
				return
			}
			accepted <- c
		}
	}()
	addr := tcp.Addr().String()
	// Two are held; the third from the same address is answered 503 and
	// closed; one from 127.0.0.2 is accepted.
	held := []net.Conn{dialFrom(t, "127.0.0.1", addr), dialFrom(t, "127.0.0.1", addr)}
	for range held {
		<-accepted
	}
	over := dialFrom(t, "127.0.0.1", addr)
	_ = over.SetReadDeadline(time.Now().Add(5 * time.Second))
	answer, err := io.ReadAll(over)
	if !strings.HasPrefix(string(answer), "HTTP/1.1 503 ") {
		t.Errorf("the third connection read %q, %v; want a 503 and the end", answer, err)
	}
	dialFrom(t, "127.0.0.2", addr)
	select {
	case c := <-accepted:
		if got := c.RemoteAddr().(*net.TCPAddr).IP.String(); got != "127.0.0.2" {
			t.Errorf("accepted a connection from %s, want 127.0.0.2", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the connection from 127.0.0.2 was not accepted")
	}
	if got := l.Open(); got != 3 {
		t.Errorf("Open = %d, want 3", got)
	}
}
