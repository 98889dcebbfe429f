//go:build !unix

package connlimit

// OpenFilesLimit returns 0: the system has no RLIMIT_NOFILE to read.
func OpenFilesLimit() uint64 { return 0 }
