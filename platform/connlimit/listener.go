package connlimit

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asapjs/fiber-template/platform/clientip"
	"github.com/asapjs/fiber-template/platform/problem"
)

// Listener is a net.Listener that holds at most Config.Total connections
// open, at most Config.PerAddress from one client address, and waits out a
// lack of files instead of failing. Make one with New.
type Listener struct {
	// Listener is the listener whose connections are held and counted.
	net.Listener
	total, perAddress int
	trusted           clientip.Proxies
	logger            *slog.Logger

	mu     sync.Mutex
	open   int
	byAddr map[string]int

	closeOnce sync.Once
	closed    chan struct{}

	// answers are written to a refused connection before it is closed,
	// by the cap that refused it.
	answers [2][]byte

	logMu   sync.Mutex
	refused int       // refused since the last log line
	lastLog time.Time // when that line was written
}

// limit is one of the caps.
type limit int

const (
	limitPerAddress limit = iota
	limitTotal
)

// String names the cap in the log.
func (c limit) String() string {
	if c == limitTotal {
		return "total"
	}
	return "per_address"
}

// New wraps ln; see Config for the caps. A TrustedProxies entry that is
// neither an address nor a CIDR range is an error.
func New(ln net.Listener, cfg Config) (*Listener, error) {
	cfg = configDefault(cfg)
	trusted, err := clientip.ParseProxies(cfg.TrustedProxies)
	if err != nil {
		return nil, fmt.Errorf("connlimit: %w", err)
	}
	return &Listener{
		Listener:   ln,
		total:      cfg.Total,
		perAddress: cfg.PerAddress,
		trusted:    trusted,
		logger:     cfg.Logger,
		byAddr:     make(map[string]int),
		closed:     make(chan struct{}),
		answers: [2][]byte{
			limitPerAddress: refusal("Too many connections are open from your address: close one, or retry later."),
			limitTotal:      refusal("The server holds as many connections as it can: retry later."),
		},
	}, nil
}

// Limits returns the caps in force: the total and the one per address.
func (l *Listener) Limits() (total, perAddress int) { return l.total, l.perAddress }

// Open returns the number of connections accepted and not yet closed.
func (l *Listener) Open() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.open
}

// Accept returns the next connection within the caps. Connections over a
// cap are answered and closed here, and accept errors that pass (a lack
// of files, a connection reset before it was accepted) are waited out, so
// the error it returns is final: the listener is closed or broken.
func (l *Listener) Accept() (net.Conn, error) {
	var delay time.Duration
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			if l.isClosed() {
				return nil, net.ErrClosed
			}
			switch acceptFault(err) {
			case faultConnection:
				continue
			case faultResources:
				delay = nextDelay(delay)
				l.logger.Warn("accept failed: waiting before the next one", slog.Any("error", err), slog.Duration("retry_in", delay))
				if !l.wait(delay) {
					return nil, net.ErrClosed
				}
				continue
			}
			return nil, err
		}
		if delay > 0 {
			l.logger.Info("accepting connections again")
			delay = 0
		}
		if conn := l.admit(c); conn != nil {
			return conn, nil
		}
	}
}

// Close closes the listener and ends a wait of Accept at once.
func (l *Listener) Close() error {
	l.closeOnce.Do(func() { close(l.closed) })
	return l.Listener.Close()
}

// isClosed reports whether Close was called.
func (l *Listener) isClosed() bool {
	select {
	case <-l.closed:
		return true
	default:
		return false
	}
}

// wait sleeps for d, or until the listener is closed (false).
func (l *Listener) wait(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-l.closed:
		return false
	}
}

// admit counts c and returns it wrapped, or refuses and closes it when a
// cap is reached.
func (l *Listener) admit(c net.Conn) net.Conn {
	peer := peerAddr(c)
	key := ""
	if peer.IsValid() && !l.trusted.Contains(peer) {
		key = clientip.Key(peer)
	}
	l.mu.Lock()
	var over limit
	switch {
	case l.open >= l.total:
		over = limitTotal
	case key != "" && l.byAddr[key] >= l.perAddress:
		over = limitPerAddress
	default:
		l.open++
		if key != "" {
			l.byAddr[key]++
		}
		l.mu.Unlock()
		return &conn{Conn: c, l: l, key: key}
	}
	l.mu.Unlock()
	l.refuse(c, peer, over)
	return nil
}

// release uncounts a connection of key that was closed.
func (l *Listener) release(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.open--
	if key == "" {
		return
	}
	if n := l.byAddr[key] - 1; n > 0 {
		l.byAddr[key] = n
	} else {
		delete(l.byAddr, key)
	}
}

// refuseWriteTimeout bounds writing the answer to a refused connection.
// Its socket is new, so the answer fits in its send buffer at once: the
// bound only guarantees that accepting never waits on a client.
const refuseWriteTimeout = 50 * time.Millisecond

// refuse answers c and closes it, and logs the refusals at most once per
// LogEvery.
func (l *Listener) refuse(c net.Conn, peer netip.Addr, over limit) {
	if c.SetWriteDeadline(time.Now().Add(refuseWriteTimeout)) == nil {
		_, _ = c.Write(l.answers[over])
	}
	_ = c.Close()
	l.logMu.Lock()
	defer l.logMu.Unlock()
	l.refused++
	if now := time.Now(); now.Sub(l.lastLog) >= LogEvery {
		l.logger.Warn("connections refused over a cap",
			slog.Int("refused", l.refused),
			slog.String("last_address", peer.String()),
			slog.String("last_cap", over.String()),
			slog.Int("max_conns", l.total), slog.Int("max_conns_per_address", l.perAddress))
		l.refused, l.lastLog = 0, now
	}
}

// peerAddr is the IP address of c's peer, IPv4-mapped addresses unmapped;
// the zero Addr when c is not an IP connection.
func peerAddr(c net.Conn) netip.Addr {
	switch a := c.RemoteAddr().(type) {
	case *net.TCPAddr:
		return a.AddrPort().Addr().Unmap()
	case nil:
		return netip.Addr{}
	default:
		ap, err := netip.ParseAddrPort(a.String())
		if err != nil {
			return netip.Addr{}
		}
		return ap.Addr().Unmap()
	}
}

// errTooManyConnections answers a connection over a limit. It is written
// here, before any request is read, so no error handler can answer it.
var errTooManyConnections = problem.Declare(http.StatusServiceUnavailable, "too_many_connections", "Too many connections")

// refusal is the HTTP/1.1 answer to a refused connection: the problem of
// errTooManyConnections with detail, which asks to retry in a second and
// closes the connection.
func refusal(detail string) []byte {
	body, _ := json.Marshal(errTooManyConnections.WithDetail("%s", detail).Problem()) // a Problem always marshals
	head := "HTTP/1.1 503 Service Unavailable\r\n" +
		"Content-Type: " + problem.ContentType + "\r\n" +
		"Content-Length: " + strconv.Itoa(len(body)) + "\r\n" +
		"Retry-After: 1\r\n" +
		"Cache-Control: no-store\r\n" +
		"X-Content-Type-Options: nosniff\r\n" +
		"Connection: close\r\n\r\n"
	return append([]byte(head), body...)
}

// conn is an accepted connection, uncounted on its first Close.
type conn struct {
	net.Conn
	l      *Listener
	key    string
	closed atomic.Bool
}

// Close implements net.Conn.
func (c *conn) Close() error {
	if !c.closed.Swap(true) {
		c.l.release(c.key)
	}
	return c.Conn.Close()
}

// CloseWrite closes the writing side of a TCP connection, so a server can
// stop writing and still read what the client is sending.
func (c *conn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return errors.ErrUnsupported
}
