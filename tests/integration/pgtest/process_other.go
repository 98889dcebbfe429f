//go:build !unix

package pgtest

import "syscall"

// procAttr has nothing to set where processes have no Unix credentials;
// there the tests never run as root in the Unix sense (owner is nil).
func procAttr(*owner) *syscall.SysProcAttr { return nil }

// processGone cannot tell without Unix signals, so it keeps every
// directory: it reports false.
func processGone(int) bool { return false }
