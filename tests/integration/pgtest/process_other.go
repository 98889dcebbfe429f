//go:build !unix

package pgtest

import (
	"errors"
	"syscall"
)

var errNoProc = errors.New("listing a process's children needs Linux")

// procAttr has nothing to set where processes have no Unix credentials;
// there the tests never run as root in the Unix sense (owner is nil).
func procAttr(*owner) *syscall.SysProcAttr { return nil }

// processGone cannot tell without Unix signals, so it keeps every
// directory: it reports false.
func processGone(int) bool { return false }

// canListChildren says childrenOf works here: it needs Linux's /proc.
const canListChildren = false

// childrenOf is not available without /proc.
func childrenOf(int) ([]int, error) {
	return nil, errNoProc
}
