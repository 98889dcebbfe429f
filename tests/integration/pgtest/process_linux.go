package pgtest

import (
	"errors"
	"syscall"
)

// procAttr runs a server process as o, when set, and has the kernel
// interrupt it, a fast shutdown for the postmaster, if the test binary dies.
func procAttr(o *owner) *syscall.SysProcAttr {
	attr := &syscall.SysProcAttr{Pdeathsig: syscall.SIGINT}
	if o != nil {
		attr.Credential = &syscall.Credential{Uid: o.uid, Gid: o.gid, Groups: []uint32{}}
	}
	return attr
}

// processGone reports whether no process has the id pid.
func processGone(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
