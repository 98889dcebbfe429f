package pgtest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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

// canListChildren says childrenOf works here.
const canListChildren = true

// childrenOf lists the processes whose parent is pid, from /proc.
func childrenOf(pid int) ([]int, error) {
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil {
		return nil, fmt.Errorf("list processes: %w", err)
	}
	var out []int
	for _, path := range stats {
		b, err := os.ReadFile(path)
		if err != nil {
			continue // exited since the listing
		}
		// pid (comm) state ppid ...; comm may hold spaces and parentheses.
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		fields := strings.Fields(string(b[i+1:]))
		if len(fields) < 2 || fields[1] != strconv.Itoa(pid) {
			continue
		}
		child, err := strconv.Atoi(filepath.Base(filepath.Dir(path)))
		if err == nil {
			out = append(out, child)
		}
	}
	return out, nil
}

// processState returns the state letter of the process pid from /proc (R,
// S, T for stopped, Z for a zombie...), and false when there is no such
// process.
func processState(pid int) (byte, bool, error) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if errors.Is(err, os.ErrNotExist) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("state of process %d: %w", pid, err)
	}
	// pid (comm) state ...; comm may hold spaces and parentheses.
	var fields []string
	if i := bytes.LastIndexByte(b, ')'); i >= 0 {
		fields = strings.Fields(string(b[i+1:]))
	}
	if len(fields) == 0 || len(fields[0]) != 1 {
		return 0, false, fmt.Errorf("state of process %d: cannot parse %q", pid, b)
	}
	return fields[0][0], true, nil
}
