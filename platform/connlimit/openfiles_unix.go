//go:build unix

package connlimit

import "syscall"

// OpenFilesLimit returns how many files the process may hold open: the
// soft RLIMIT_NOFILE (which the Go runtime raises to the hard one when it
// starts), or 0 when it is unlimited or cannot be read.
func OpenFilesLimit() uint64 {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0
	}
	// Cur is unsigned on some systems, signed on others; RLIM_INFINITY
	// is all ones on Linux, 1<<63 - 1 on the BSDs.
	cur := uint64(lim.Cur)
	if cur >= 1<<62 {
		return 0
	}
	return cur
}
