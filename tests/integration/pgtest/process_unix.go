//go:build unix && !linux

package pgtest

import (
	"errors"
	"syscall"
)

// procAttr runs a server process as o, when set. Only Linux can tie the
// server's life to the test binary's.
func procAttr(o *owner) *syscall.SysProcAttr {
	if o == nil {
		return nil
	}
	return &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: o.uid, Gid: o.gid, Groups: []uint32{}}}
}

// processGone reports whether no process has the id pid.
func processGone(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

// canListChildren says childrenOf works here: it needs Linux's /proc.
const canListChildren = false

// childrenOf is not available without /proc.
func childrenOf(int) ([]int, error) {
	return nil, errors.New("listing a process's children needs Linux")
}

// processState is not available without /proc.
func processState(int) (byte, bool, error) {
	return 0, false, errors.New("reading a process's state needs Linux")
}
