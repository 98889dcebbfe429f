package integration

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/asapjs/fiber-template/internal/testkit"
)

// This file holds what the memory tests (bombs_test.go) need: bodies made
// as they are sent, the server's memory read from /proc, and a memory limit
// put on the built binary.

// generated is a body made as it is read, so the client never holds it: a
// sequence of runs, each a unit repeated a number of times.
type generated struct {
	runs []run
	i    int   // the run being read
	off  int64 // bytes of it read
}

// run is unit repeated n times. In a numbered run the first stretch of '#'
// in unit is replaced by the repetition's index, zero-padded to its width,
// so that every repetition differs (object keys, say).
type run struct {
	unit     string
	n        int64
	numbered bool
	block    []byte // unit repeated to some 64 KB, or one numbered unit
}

// text is s once.
func text(s string) run { return run{unit: s, n: 1} }

// repeat is s n times.
func repeat(s string, n int64) run { return run{unit: s, n: n} }

// numbered is s n times, each with its index in place of its '#'s.
func numbered(s string, n int64) run { return run{unit: s, n: n, numbered: true} }

// body is a generated body of the runs. It holds copies of them, since a
// run caches its block: bodies made from the same runs are read at once.
func body(runs ...run) *generated { return &generated{runs: slices.Clone(runs)} }

// Len is the size of the whole body in bytes.
func (g *generated) Len() int64 {
	var n int64
	for _, r := range g.runs {
		n += int64(len(r.unit)) * r.n
	}
	return n
}

func (g *generated) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) && g.i < len(g.runs) {
		r := &g.runs[g.i]
		if g.off >= int64(len(r.unit))*r.n {
			g.i, g.off = g.i+1, 0
			continue
		}
		k := r.read(p[n:], g.off)
		n += k
		g.off += int64(k)
	}
	if n == 0 && len(p) > 0 {
		return 0, io.EOF
	}
	return n, nil
}

// read copies the run from offset off into p.
func (r *run) read(p []byte, off int64) int {
	left := int64(len(r.unit))*r.n - off
	if int64(len(p)) > left {
		p = p[:left]
	}
	if r.numbered {
		if r.block == nil {
			r.block = []byte(r.unit)
		}
		if at := strings.IndexByte(r.unit, '#'); at >= 0 {
			width := len(r.unit[at:]) - len(strings.TrimLeft(r.unit[at:], "#"))
			for i, index := at+width-1, off/int64(len(r.unit)); i >= at; i, index = i-1, index/10 {
				r.block[i] = byte('0' + index%10)
			}
		}
		return copy(p, r.block[off%int64(len(r.unit)):])
	}
	if r.block == nil {
		r.block = bytes.Repeat([]byte(r.unit), max(1, (64<<10)/len(r.unit)))
	}
	return copy(p, r.block[off%int64(len(r.block)):])
}

// procStatus reads a /proc/<pid>/status field in bytes: VmRSS (resident
// now) or VmHWM (the most ever resident).
func procStatus(pid int, field string) (int64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				return 0, fmt.Errorf("%s: %w", field, err)
			}
			return kb << 10, nil
		}
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, fmt.Errorf("no %s in /proc/%d/status", field, pid)
}

// memoryLimit holds a built binary to a memory budget, one of two ways:
//
//   - cgroup v2, where the hierarchy has the memory controller and the test
//     may create a cgroup (root, or a delegated subtree): a new cgroup with
//     memory.max (and memory.swap.max 0), which the binary joins before it
//     starts, so all its memory counts and the kernel's OOM killer ends it
//     over the budget, as in a container;
//   - otherwise GOMEMLIMIT at 200/256 of the budget (the Go runtime collects
//     harder near it, but it is soft), `ulimit -v` as a backstop, and a
//     watchdog of the test that kills the process with SIGKILL once its
//     resident memory passes the budget (polled every 10 ms), standing in
//     for the OOM killer. ulimit -v cannot be the budget itself: the Go
//     runtime reserves address space it never touches (1.4-1.8 GB of
//     VmSize at rest for cmd/api), so it is 3 GiB, with MALLOC_ARENA_MAX=2
//     so that glibc's per-thread arenas do not reserve more.
type memoryLimit struct {
	how     string            // the mechanism, for the log
	bytes   int64             // the budget
	cgroup  string            // the cgroup's directory, if any
	bin     string            // the binary
	wrapper string            // a script that starts bin under the limit
	env     map[string]string // what the limit adds to the environment
	killed  atomic.Bool       // whether the watchdog killed a process
}

// limitMemory prepares a memory limit of size bytes for bin.
func limitMemory(t *testing.T, bin string, size int64) *memoryLimit {
	t.Helper()
	l := &memoryLimit{bytes: size, bin: bin, env: map[string]string{}}
	script := "#!/bin/sh\n"
	if dir, err := memoryCgroup(size); err == nil {
		t.Cleanup(func() { removeCgroup(t, dir) })
		l.cgroup = dir
		l.how = fmt.Sprintf("cgroup v2 %s, memory.max %d MiB", dir, size>>20)
		script += fmt.Sprintf("echo $$ > '%s/cgroup.procs' || exit 97\n", dir)
	} else {
		const addressSpace = 3 << 30
		goLimit := size * 200 / 256
		l.how = fmt.Sprintf("no cgroup v2 (%v): GOMEMLIMIT=%dMiB, ulimit -v %d MiB, MALLOC_ARENA_MAX=2, and a watchdog killing the process over %d MiB resident",
			err, goLimit>>20, addressSpace>>20, size>>20)
		l.env["GOMEMLIMIT"] = fmt.Sprintf("%dMiB", goLimit>>20)
		l.env["MALLOC_ARENA_MAX"] = "2"
		script += fmt.Sprintf("ulimit -v %d || exit 97\n", addressSpace>>10)
	}
	script += fmt.Sprintf("exec '%s'\n", bin)
	l.wrapper = filepath.Join(t.TempDir(), "limited.sh")
	if err := os.WriteFile(l.wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return l
}

// start starts the binary under the limit, as startAPI does (the script
// execs it, so the process is the binary's own).
func (l *memoryLimit) start(t *testing.T, config map[string]string) *testkit.Process {
	t.Helper()
	env := maps.Clone(config)
	maps.Copy(env, l.env)
	p := startAPI(t, l.wrapper, env)
	if l.cgroup == "" {
		go l.watch(p)
	}
	return p
}

// watch kills p once its resident memory passes the budget.
func (l *memoryLimit) watch(p *testkit.Process) {
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-p.Done():
			return
		case <-tick.C:
			if rss, err := procStatus(p.Cmd.Process.Pid, "VmRSS"); err == nil && rss > l.bytes {
				l.killed.Store(true)
				_ = p.Cmd.Process.Kill()
				return
			}
		}
	}
}

// ooms says how often the limit ended a process.
func (l *memoryLimit) ooms() string {
	if l.cgroup == "" {
		return fmt.Sprintf("watchdog kill: %v", l.killed.Load())
	}
	b, err := os.ReadFile(filepath.Join(l.cgroup, "memory.events"))
	if err != nil {
		return err.Error()
	}
	return "memory.events: " + strings.Join(strings.Fields(string(b)), " ")
}

// memoryCgroup creates a cgroup v2 with memory.max size, or says why it
// cannot: no cgroup2 mount, no memory controller there, or no permission.
func memoryCgroup(size int64) (string, error) {
	mount, err := cgroup2Mount()
	if err != nil {
		return "", err
	}
	own, err := ownCgroup()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(mount, own)
	controllers, err := os.ReadFile(filepath.Join(dir, "cgroup.controllers"))
	if err != nil {
		return "", err
	}
	if !slices.Contains(strings.Fields(string(controllers)), "memory") {
		return "", fmt.Errorf("cgroup2 at %s has no memory controller (controllers: %q)", mount, strings.TrimSpace(string(controllers)))
	}
	// The new cgroup's parent must enable memory for its children: this
	// process's own cgroup if it does, else its parent, which does (the
	// own cgroup has the controller), else the own one once enabled there,
	// which only works where it has no processes of its own or is the root.
	parent := dir
	subtree, _ := os.ReadFile(filepath.Join(dir, "cgroup.subtree_control"))
	switch {
	case slices.Contains(strings.Fields(string(subtree)), "memory"):
	case own != "/":
		parent = filepath.Dir(dir)
	default:
		if err := os.WriteFile(filepath.Join(dir, "cgroup.subtree_control"), []byte("+memory"), 0); err != nil {
			return "", fmt.Errorf("enable memory in %s: %w", dir, err)
		}
	}
	cg, err := os.MkdirTemp(parent, "fiber-template-bombs-")
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(cg, "memory.max"), []byte(strconv.FormatInt(size, 10)), 0); err != nil {
		_ = os.Remove(cg)
		return "", fmt.Errorf("set memory.max: %w", err)
	}
	_ = os.WriteFile(filepath.Join(cg, "memory.swap.max"), []byte("0"), 0) // absent without swap accounting
	return cg, nil
}

// cgroup2Mount is where the cgroup v2 hierarchy is mounted (its root).
func cgroup2Mount() (string, error) {
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return "", err
	}
	for line := range strings.Lines(string(b)) {
		// id parent major:minor root mountpoint options... - fstype source superoptions
		fields := strings.Fields(line)
		sep := -1
		for i, f := range fields {
			if f == "-" {
				sep = i
				break
			}
		}
		if sep > 4 && sep+1 < len(fields) && fields[sep+1] == "cgroup2" && fields[3] == "/" {
			return fields[4], nil
		}
	}
	return "", errors.New("no cgroup2 file system mounted")
}

// ownCgroup is this process's cgroup v2 path, from /proc/self/cgroup.
func ownCgroup() (string, error) {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", err
	}
	for line := range strings.Lines(string(b)) {
		if path, ok := strings.CutPrefix(strings.TrimSpace(line), "0::"); ok {
			return path, nil
		}
	}
	return "", errors.New("no cgroup v2 entry in /proc/self/cgroup")
}

// removeCgroup removes a cgroup once its processes are gone.
func removeCgroup(t *testing.T, dir string) {
	var err error
	for range 50 {
		if err = syscall.Rmdir(dir); err == nil || errors.Is(err, os.ErrNotExist) {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Errorf("remove cgroup %s: %v", dir, err)
}

// jsonRequest is a request with a JSON body.
func jsonRequest(t *testing.T, method, url, body string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	return req
}
