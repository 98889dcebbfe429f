package dbscale

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/asapjs/fiber-template/platform/database"
)

// The environment of a child process that serves one implementation on the
// process transport: which one, and the database it reads.
const (
	serveEnv = "DBSCALE_SERVE"
	dsnEnv   = "DBSCALE_DSN"
	// profileEnv (BENCH_PROFILE) names a directory where each child writes
	// the CPU profile of its whole life, one file per implementation.
	profileEnv = "BENCH_PROFILE"
)

// serveChild is a child process's life when serveEnv names an implementation
// (its name on the process transport): it serves it on a loopback port,
// and its own CPU time on another, prints "ready <addr> <cpu addr>
// <authorization>" (the Authorization its requests need, empty for none)
// and serves until its standard input ends. It returns the process's exit
// code.
func serveChild() int {
	if err := serve(os.Getenv(serveEnv), os.Getenv(dsnEnv)); err != nil {
		fmt.Fprintln(os.Stderr, "dbscale child:", err)
		return 1
	}
	return 0
}

func serve(name, dsn string) error {
	names := implNames[transportProcess]
	impl := slices.Index(names[:], name)
	if impl < 0 {
		return fmt.Errorf("%s=%q names no implementation", serveEnv, name)
	}
	if dir := os.Getenv(profileEnv); dir != "" {
		stop, err := profileCPU(dir, name)
		if err != nil {
			return err
		}
		defer stop()
	}
	on, closeStack, err := openStack(context.Background(), impl, dsn)
	if err != nil {
		return err
	}
	defer closeStack()
	app, authorization := on.served(impl)
	r, stop, err := listen(app, "", 1)
	if err != nil {
		return err
	}
	defer stop()
	cpu, cpuAddr, err := serveCPU()
	if err != nil {
		return err
	}
	defer cpu.Close()
	fmt.Printf("ready %s %s %s\n", strings.TrimPrefix(r.base, "http://"), cpuAddr, authorization)
	_, _ = io.Copy(io.Discard, os.Stdin)
	return nil
}

// profileCPU starts profiling the process's CPU into a file of dir named
// for the implementation, and returns what stops it and closes the file.
func profileCPU(dir, name string) (func(), error) {
	file := strings.NewReplacer(" ", "", "+", "-", "/", "-", "(", "", ")", "").Replace(name)
	f, err := os.Create(filepath.Join(dir, file+".pprof"))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", profileEnv, err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("%s: %w", profileEnv, err)
	}
	return func() {
		pprof.StopCPUProfile()
		_ = f.Close()
	}, nil
}

// openStack opens what the implementation impl is built on, and only
// that, and what closes it.
func openStack(ctx context.Context, impl int, dsn string) (stack, func(), error) {
	var on stack
	var err error
	switch impl {
	case implService, implHuma:
		if on.db, err = database.Open(ctx, dsn); err != nil {
			return on, nil, err
		}
		closeDB := func() { _ = on.db.Close() }
		if impl == implService {
			if on.svc, err = newService(ctx, on.db, 1); err != nil {
				closeDB()
				return on, nil, err
			}
		}
		return on, closeDB, nil
	case implSQLx:
		if on.sqlx, err = openSQLx(dsn); err != nil {
			return on, nil, err
		}
		return on, func() { _ = on.sqlx.Close() }, nil
	}
	if on.pool, on.cursors, err = openRaw(ctx, dsn, 25); err != nil {
		return on, nil, err
	}
	return on, on.pool.Close, nil
}

// serveCPU serves the process's CPU time so far, in nanoseconds, on a
// loopback port.
func serveCPU() (*http.Server, net.Addr, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, nil, err
	}
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		d, err := cpuTime()
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		fmt.Fprint(w, d.Nanoseconds())
	})}
	go func() { _ = srv.Serve(ln) }()
	return srv, ln.Addr(), nil
}

// child is an implementation served by a child process.
type child struct {
	cmd    *exec.Cmd
	stdin  io.Closer
	remote *remote
	cpuURL string
}

// startChild starts the test binary again as a child serving the
// implementation impl on dsn, with up to workers connections to it.
func startChild(impl int, dsn string, workers int) (*child, error) {
	name := implNames[transportProcess][impl]
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), serveEnv+"="+name, dsnEnv+"="+dsn)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c := &child{cmd: cmd, stdin: stdin}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	// The authorization, last, may hold spaces, or be empty.
	f := strings.SplitN(strings.TrimSuffix(line, "\n"), " ", 4)
	if err != nil || len(f) != 4 || f[0] != "ready" {
		c.stop()
		return nil, fmt.Errorf("child %s: %q: %v", name, line, err)
	}
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	c.remote = newRemote(f[1], f[3], workers)
	c.cpuURL = "http://" + f[2] + "/"
	return c, nil
}

// cpu is the CPU time the child has spent so far, user and system.
func (c *child) cpu() (time.Duration, error) {
	res, err := http.Get(c.cpuURL)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return 0, err
	}
	if res.StatusCode != http.StatusOK {
		return 0, errors.New(string(body))
	}
	ns, err := strconv.ParseInt(string(body), 10, 64)
	return time.Duration(ns), err
}

// stop ends the child: its standard input closes, and it exits.
func (c *child) stop() {
	_ = c.stdin.Close()
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = c.cmd.Process.Kill()
		<-done
	}
}

// measure runs load with fn and adds the child's CPU time per request to
// the cell.
func (c *child) measure(ctx context.Context, workers int, d time.Duration, fn func(ctx context.Context, worker int) error) (cell, error) {
	before, err := c.cpu()
	if err != nil {
		return cell{}, err
	}
	res, err := load(ctx, workers, d, fn)
	if err != nil {
		return cell{}, err
	}
	after, err := c.cpu()
	if err != nil {
		return cell{}, err
	}
	res.cpu = (after - before) / time.Duration(res.n)
	return res, nil
}
