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
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/paging"
)

// The environment of a child process that serves one implementation on the
// process transport: which one, and the database it reads.
const (
	serveEnv = "DBSCALE_SERVE"
	dsnEnv   = "DBSCALE_DSN"
)

// serveChild is a child process's life when serveEnv names an implementation
// (its name on the process transport): it serves it on a loopback port,
// and its own CPU time on another, prints "ready <addr> <cpu addr>
// <authorization>" and serves until its standard input ends. It returns
// the process's exit code.
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
	app, authorization, closeApp, err := childApp(context.Background(), impl, dsn)
	if err != nil {
		return err
	}
	defer closeApp()
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
	if authorization == "" {
		authorization = "-"
	}
	fmt.Printf("ready %s %s %s\n", strings.TrimPrefix(r.base, "http://"), cpuAddr, strings.ReplaceAll(authorization, " ", "+"))
	_, _ = io.Copy(io.Discard, os.Stdin)
	return nil
}

// childApp is the implementation impl on dsn, the Authorization its
// requests need ("" for none), and what closes its pool.
func childApp(ctx context.Context, impl int, dsn string) (app any, authorization string, closeApp func(), err error) {
	switch impl {
	case implService, implHuma:
		db, err := database.Open(ctx, dsn)
		if err != nil {
			return nil, "", nil, err
		}
		closeApp = func() { _ = db.Close() }
		if impl == implHuma {
			return humaApp(db), "", closeApp, nil
		}
		svc, err := newService(ctx, db, 1)
		if err != nil {
			closeApp()
			return nil, "", nil, err
		}
		return svc.app, svc.authorization, closeApp, nil
	case implSQLx:
		db, err := openSQLx(dsn)
		if err != nil {
			return nil, "", nil, err
		}
		return sqlxApp(db), "", func() { _ = db.Close() }, nil
	}
	pool, err := newPool(ctx, dsn+"&pool_max_conns=25")
	if err != nil {
		return nil, "", nil, err
	}
	cursors, err := paging.NewCursors(secret)
	if err != nil {
		pool.Close()
		return nil, "", nil, err
	}
	switch impl {
	case implToday:
		app = rawHandler(&rawList{pool: pool, cursors: cursors, today: true})
	case implRaw:
		app = rawHandler(newRawList(pool, cursors))
	default:
		app = rawFiber(newRawList(pool, cursors))
	}
	return app, "", pool.Close, nil
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
	f := strings.Fields(line)
	if err != nil || len(f) != 4 || f[0] != "ready" {
		c.stop()
		return nil, fmt.Errorf("child %s: %q: %v", name, line, err)
	}
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	authorization := ""
	if f[3] != "-" {
		authorization = strings.ReplaceAll(f[3], "+", " ")
	}
	c.remote = newRemote(f[1], authorization, workers)
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
