package pgtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/asapjs/fiber-template/internal/testkit"
)

// localServer is a throwaway cluster run from the local PostgreSQL server
// binaries, in a temporary directory, on a loopback port.
type localServer struct {
	bindir string
	dir    string // temporary directory: data/, the socket, the log
	port   int
	owner  *owner // the OS user the server runs as; nil for the current one

	cmd    *exec.Cmd  // the postmaster while it runs, else nil
	exited chan error // receives the postmaster's exit
	log    *os.File
	frozen bool // its processes are stopped by SIGSTOP (see Freeze)
}

// owner is the unprivileged OS user the server runs as when the tests run
// as root, which PostgreSQL refuses.
type owner struct {
	name     string
	uid, gid uint32
}

// fromBinaries initialises and starts a cluster from the local binaries.
func fromBinaries(ctx context.Context) (server, error) {
	s, err := newLocalServer(ctx)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// newLocalServer initialises and starts a cluster from the local binaries;
// without them it returns an *unavailableError saying where it looked.
func newLocalServer(ctx context.Context) (*localServer, error) {
	bindir, tried := findBindir()
	if bindir == "" {
		return nil, &unavailableError{reasons: []string{"no PostgreSQL server binaries (initdb, postgres) in " + strings.Join(tried, ", ")}}
	}
	var o *owner
	if os.Geteuid() == 0 {
		var err error
		if o, err = lookupOwner("postgres"); err != nil {
			return nil, &unavailableError{reasons: []string{fmt.Sprintf(
				"the tests run as root, which PostgreSQL refuses, and there is no postgres user to run %s as (%v)", bindir, err)}}
		}
	}
	removeAbandoned()
	dir, err := os.MkdirTemp(os.TempDir(), dirPattern)
	if err != nil {
		return nil, fmt.Errorf("create PostgreSQL directory: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("mark PostgreSQL directory: %w", err)
	}
	s := &localServer{bindir: bindir, dir: dir, owner: o}
	if err := s.init(ctx); err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	if s.port, err = testkit.FreePort(); err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	if err := s.start(ctx); err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	return s, nil
}

// The temporary directory of a cluster is named after dirPattern and holds
// ownerFile, the process id of the test binary that made it.
const (
	dirPattern = "pgtest-"
	ownerFile  = "pgtest.pid"
)

// removeAbandoned removes the cluster directories of test binaries that
// died without tearing down, killed by their timeout say; their servers
// died with them (see procAttr). Directories without an owner file, or
// whose owner still runs, are left alone.
func removeAbandoned() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), dirPattern+"*"))
	for _, dir := range dirs {
		b, err := os.ReadFile(filepath.Join(dir, ownerFile))
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || pid <= 0 || pid == os.Getpid() || !processGone(pid) {
			continue
		}
		_ = os.RemoveAll(dir)
	}
}

// findBindir returns the first directory holding initdb and postgres among
// PG_BINDIR, pg_config --bindir, the Debian layout (highest version first)
// and PATH, with the places it tried.
func findBindir() (string, []string) {
	var candidates, tried []string
	if dir := os.Getenv("PG_BINDIR"); dir != "" {
		candidates = append(candidates, dir)
	} else {
		tried = append(tried, "PG_BINDIR (not set)")
	}
	if out, err := exec.Command("pg_config", "--bindir").Output(); err == nil {
		candidates = append(candidates, strings.TrimSpace(string(out)))
	} else {
		tried = append(tried, "pg_config --bindir (no pg_config)")
	}
	const debian = "/usr/lib/postgresql/*/bin"
	versions, _ := filepath.Glob(debian)
	slices.SortFunc(versions, func(a, b string) int { return compareVersions(b, a) })
	if len(versions) == 0 {
		tried = append(tried, debian)
	}
	candidates = append(candidates, versions...)
	if initdb, err := exec.LookPath("initdb"); err == nil {
		candidates = append(candidates, filepath.Dir(initdb))
	} else {
		tried = append(tried, "PATH")
	}
	for _, dir := range candidates {
		if isExecutable(filepath.Join(dir, "initdb")) && isExecutable(filepath.Join(dir, "postgres")) {
			return dir, nil
		}
		tried = append(tried, dir)
	}
	return "", tried
}

// compareVersions orders /usr/lib/postgresql/<version>/bin paths by version.
func compareVersions(a, b string) int {
	va := strings.Split(filepath.Base(filepath.Dir(a)), ".")
	vb := strings.Split(filepath.Base(filepath.Dir(b)), ".")
	for i := range max(len(va), len(vb)) {
		var na, nb int
		if i < len(va) {
			na, _ = strconv.Atoi(va[i])
		}
		if i < len(vb) {
			nb, _ = strconv.Atoi(vb[i])
		}
		if na != nb {
			return na - nb
		}
	}
	return 0
}

func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

func lookupOwner(name string) (*owner, error) {
	u, err := user.Lookup(name)
	if err != nil {
		return nil, err
	}
	uid, err := strconv.ParseUint(u.Uid, 10, 32)
	if err != nil {
		return nil, fmt.Errorf("uid of %s: %w", name, err)
	}
	gid, err := strconv.ParseUint(u.Gid, 10, 32)
	if err != nil {
		return nil, fmt.Errorf("gid of %s: %w", name, err)
	}
	return &owner{name: name, uid: uint32(uid), gid: uint32(gid)}, nil
}

func (s *localServer) dataDir() string { return filepath.Join(s.dir, "data") }

// init runs initdb: trust authentication for the postgres superuser, and
// no fsync, as the cluster lives only as long as the tests.
func (s *localServer) init(ctx context.Context) error {
	if err := s.handToOwner(); err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, filepath.Join(s.bindir, "initdb"),
		"--pgdata", s.dataDir(), "--username", "postgres", "--auth", "trust",
		"--encoding", "UTF8", "--locale", "C", "--no-sync")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	s.prepare(cmd)
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("initdb in %s: %w\n%s", s.dir, err, strings.TrimSpace(out.String()))
	}
	return nil
}

// handToOwner gives the server's directory to its owner, so that initdb
// or pg_basebackup can create data/ and the server its socket;
// os.TempDir() itself is world-writable.
func (s *localServer) handToOwner() error {
	if s.owner == nil {
		return nil
	}
	if err := os.Chown(s.dir, int(s.owner.uid), int(s.owner.gid)); err != nil {
		return fmt.Errorf("hand %s to %s: %w", s.dir, s.owner.name, err)
	}
	return nil
}

// prepare runs cmd in the server's directory, as its owner, without the
// PG* variables that would redirect the binaries elsewhere.
func (s *localServer) prepare(cmd *exec.Cmd) {
	cmd.Dir = s.dir
	env := []string{"LC_ALL=C"}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PG") && !strings.HasPrefix(kv, "LC_") {
			env = append(env, kv)
		}
	}
	cmd.Env = env
	cmd.SysProcAttr = procAttr(s.owner)
}

func (s *localServer) source() string {
	return fmt.Sprintf("a local PostgreSQL from %s on 127.0.0.1:%d", s.bindir, s.port)
}

func (s *localServer) adminURL() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", s.port)
}

func (s *localServer) running() bool { return s.cmd != nil }

// start runs the postmaster as a child of the test binary rather than
// through pg_ctl, so that a test binary that dies without tearing down,
// killed by its timeout say, takes the server with it (see procAttr).
func (s *localServer) start(ctx context.Context) error {
	if s.cmd != nil {
		return errors.New("start PostgreSQL: already running")
	}
	log, err := os.OpenFile(filepath.Join(s.dir, "postgres.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("start PostgreSQL: open log: %w", err)
	}
	cmd := exec.Command(filepath.Join(s.bindir, "postgres"),
		"-D", s.dataDir(),
		"-p", strconv.Itoa(s.port),
		"-c", "listen_addresses=127.0.0.1",
		"-c", "unix_socket_directories="+s.dir,
		"-c", "fsync=off",
		"-c", "synchronous_commit=off",
		"-c", "full_page_writes=off",
		"-c", "max_connections=200",
	)
	cmd.Stdout, cmd.Stderr = log, log
	s.prepare(cmd)

	started := make(chan error, 1)
	exited := make(chan error, 1)
	go func() {
		// The parent-death signal fires when the thread that forked the
		// child exits, not the process; hold this thread until the
		// postmaster is gone.
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		exited <- cmd.Wait()
	}()
	if err := <-started; err != nil {
		log.Close()
		return fmt.Errorf("start PostgreSQL: %w", err)
	}
	s.cmd, s.exited, s.log = cmd, exited, log
	if err := s.waitReady(ctx); err != nil {
		_ = s.stop(context.Background())
		return fmt.Errorf("start PostgreSQL: %w\n%s", err, s.logTail())
	}
	return nil
}

// waitReady polls until the server answers a query.
func (s *localServer) waitReady(ctx context.Context) error {
	for {
		attempt, cancel := context.WithTimeout(ctx, time.Second)
		err := ping(attempt, s.adminURL())
		cancel()
		if err == nil {
			return nil
		}
		select {
		case exit := <-s.exited:
			s.exited <- exit // stop waits for it too
			return fmt.Errorf("postgres exited before accepting connections: %v", exit)
		case <-ctx.Done():
			return fmt.Errorf("postgres did not accept connections: %w (last: %v)", ctx.Err(), err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// stop asks the postmaster for a fast shutdown, which ends open sessions,
// and kills it if that takes longer than ctx allows.
func (s *localServer) stop(ctx context.Context) error {
	if s.cmd == nil {
		return nil
	}
	if err := s.thaw(); err != nil {
		return err
	}
	defer func() {
		s.log.Close()
		s.cmd, s.exited, s.log = nil, nil, nil
	}()
	if err := s.cmd.Process.Signal(os.Interrupt); err != nil && !errors.Is(err, os.ErrProcessDone) {
		_ = s.cmd.Process.Kill()
	}
	select {
	case <-s.exited:
		return nil
	case <-ctx.Done():
	}
	_ = s.cmd.Process.Kill()
	<-s.exited
	return fmt.Errorf("stop PostgreSQL: no fast shutdown within the timeout, killed: %w", ctx.Err())
}

// close stops the server and removes its directory.
func (s *localServer) close(ctx context.Context) error {
	err := s.stop(ctx)
	if rmErr := os.RemoveAll(s.dir); rmErr != nil {
		err = errors.Join(err, fmt.Errorf("remove %s: %w", s.dir, rmErr))
	}
	return err
}

// logTail returns the end of the server log, for error messages.
func (s *localServer) logTail() string {
	f, err := os.Open(filepath.Join(s.dir, "postgres.log"))
	if err != nil {
		return ""
	}
	defer f.Close()
	const tail = 4096
	if fi, err := f.Stat(); err == nil && fi.Size() > tail {
		_, _ = f.Seek(-tail, io.SeekEnd)
	}
	b, _ := io.ReadAll(f)
	return "postgres log:\n" + strings.TrimSpace(string(b))
}
