package connlimit

import (
	"errors"
	"net"
	"syscall"
	"time"
)

// fault is what an accept error says about what to do next.
type fault int

const (
	// faultFinal: the listener is closed or broken; return the error.
	faultFinal fault = iota
	// faultConnection: one pending connection failed before it was
	// accepted (Linux passes its network errors to accept); accept the
	// next at once.
	faultConnection
	// faultResources: the process or the system lacks files or memory
	// for now; wait, then accept again.
	faultResources
)

// acceptFault classifies an error of Accept.
func acceptFault(err error) fault {
	switch {
	case errors.Is(err, net.ErrClosed):
		return faultFinal
	case errors.Is(err, syscall.EMFILE), errors.Is(err, syscall.ENFILE),
		errors.Is(err, syscall.ENOBUFS), errors.Is(err, syscall.ENOMEM):
		return faultResources
	case errors.Is(err, syscall.ECONNABORTED), errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, syscall.EPROTO), errors.Is(err, syscall.EPERM),
		errors.Is(err, syscall.ENETDOWN), errors.Is(err, syscall.ENETUNREACH),
		errors.Is(err, syscall.EHOSTDOWN), errors.Is(err, syscall.EHOSTUNREACH),
		errors.Is(err, syscall.ENOPROTOOPT), errors.Is(err, syscall.EOPNOTSUPP),
		errors.Is(err, syscall.ETIMEDOUT):
		return faultConnection
	}
	// What net/http's Serve retries too: a deadline, or an error that
	// says it passes.
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return faultResources
	}
	var temp interface{ Temporary() bool }
	if errors.As(err, &temp) && temp.Temporary() {
		return faultResources
	}
	return faultFinal
}

// Pauses between failed accepts, as net/http's server takes them.
const (
	firstDelay = 5 * time.Millisecond
	maxDelay   = time.Second
)

// nextDelay is the pause after a failed accept that followed a pause of
// d (0 for the first failure): doubled, from firstDelay up to maxDelay.
func nextDelay(d time.Duration) time.Duration {
	if d == 0 {
		return firstDelay
	}
	return min(2*d, maxDelay)
}
