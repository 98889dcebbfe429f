package pgtest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/asapjs/fiber-template/internal/testkit"
)

// Timeouts of the harness. Starting includes initdb, which takes seconds on
// a busy machine; the others are single statements or a fast shutdown.
const (
	startTimeout     = 2 * time.Minute
	stopTimeout      = 30 * time.Second
	statementTimeout = 30 * time.Second
)

// server is a PostgreSQL server tests can create databases on.
type server interface {
	// source says where the server comes from, for messages.
	source() string
	// adminURL is a postgres:// URL of a maintenance database whose user
	// may create and drop databases.
	adminURL() string
	// close tears the server down; it is a no-op for servers the harness
	// did not start.
	close(ctx context.Context) error
}

// unavailableError says that no source could provide a server, and why
// each was passed over; it makes tests skip rather than fail, outside CI.
type unavailableError struct {
	reasons []string
}

func (e *unavailableError) Error() string {
	return "no PostgreSQL server available:\n  - " + strings.Join(e.reasons, "\n  - ") +
		"\nSet TEST_DATABASE_URL to a postgres:// URL whose user may CREATE DATABASE," +
		" or install the PostgreSQL server binaries (e.g. apt-get install postgresql)" +
		" and, if they are not found, point PG_BINDIR at their directory."
}

// harness holds the servers of the test binary: started on first use, torn
// down by Main. It is the package's only state, held across the tests that
// TestMain runs.
type harness struct {
	mu        sync.Mutex
	inMain    bool   // Main is running the tests, so teardown is guaranteed
	started   bool   // a start was attempted; srv or err holds its outcome
	announced bool   // a skip for want of a server was announced
	srv       server // nil until started, and after teardown
	err       error  // why srv is nil
	seq       int    // numbers the databases handed out

	// The controlled server, which tests may stop, freeze, kill and
	// replicate: srv itself when it runs from local binaries, else a
	// second server from local binaries, started on first use.
	ctlStarted bool         // a start of a second server was attempted
	ctl        *localServer // that second server; nil if none, and after teardown
	ctlErr     error        // why ctl is nil
	held       int          // databases of NewControlledDatabase not dropped yet
}

var shared harness

// Main runs the tests of m and exits with their status, tearing down the
// PostgreSQL server they used, if any, whatever the outcome. Call it from
// TestMain:
//
//	func TestMain(m *testing.M) { pgtest.Main(m) }
//
// The server starts lazily, when a test first asks for a database, so
// packages whose selected tests need none pay nothing. An interrupt or
// SIGTERM tears the server down before the process exits.
func Main(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	shared.mu.Lock()
	shared.inMain = true
	shared.mu.Unlock()

	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig, ok := <-signals
		if !ok {
			return
		}
		fmt.Fprintf(os.Stderr, "pgtest: %v: stopping PostgreSQL\n", sig)
		if err := shared.teardown(); err != nil {
			fmt.Fprintln(os.Stderr, "pgtest:", err)
		}
		os.Exit(1)
	}()

	code := m.Run()

	signal.Stop(signals)
	close(signals)
	if err := shared.teardown(); err != nil {
		fmt.Fprintln(os.Stderr, "pgtest:", err)
		if code == 0 {
			code = 1
		}
	}
	return code
}

// teardown closes the servers that were started; later requests fail.
func (h *harness) teardown() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.started, h.ctlStarted = true, true
	h.err = errors.New("the PostgreSQL server was torn down after the tests")
	h.ctlErr = h.err
	var servers []server
	if h.srv != nil {
		servers = append(servers, h.srv)
	}
	if h.ctl != nil {
		servers = append(servers, h.ctl)
	}
	h.srv, h.ctl = nil, nil
	ctx, cancel := context.WithTimeout(context.Background(), stopTimeout)
	defer cancel()
	var errs []error
	for _, srv := range servers {
		if err := srv.close(ctx); err != nil {
			errs = append(errs, fmt.Errorf("tear down %s: %w", srv.source(), err))
		}
	}
	return errors.Join(errs...)
}

// server returns the running server, starting it on first use. It skips t
// when no server is available, or fails it when CI is set, both of which
// exit the goroutine: the caller must hold h.mu and release it by defer.
func (h *harness) server(t testing.TB) server {
	t.Helper()
	if !h.inMain {
		t.Fatal("pgtest: call pgtest.Main(m) from the package's TestMain, so the server is torn down after the tests")
	}
	if !h.started {
		h.started = true
		ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
		h.srv, h.err = start(ctx)
		cancel()
	}
	if h.err != nil {
		var unavailable *unavailableError
		switch {
		case !errors.As(h.err, &unavailable):
			t.Fatalf("pgtest: %v", h.err)
		case !h.announced:
			// One visible line for the run; the other tests skip quietly.
			h.announced = true
			testkit.Missing(t, fmt.Sprintf("a PostgreSQL server: %v", h.err))
		default:
			testkit.Missing(t, "a PostgreSQL server (see the first skipped test)")
		}
	}
	return h.srv
}

// start provides a server from the first source that has one. A source
// that is configured but broken is an error, not a reason to try the next.
func start(ctx context.Context) (server, error) {
	var reasons []string
	for _, source := range []func(context.Context) (server, error){fromEnv, fromContainer, fromBinaries} {
		srv, err := source(ctx)
		var unavailable *unavailableError
		switch {
		case err == nil:
			return srv, nil
		case errors.As(err, &unavailable):
			reasons = append(reasons, unavailable.reasons...)
		default:
			return nil, err
		}
	}
	return nil, &unavailableError{reasons: reasons}
}

// NewDatabase creates a fresh, empty database for t and returns its
// postgres:// URL. The database is dropped when t ends, after its open
// connections are terminated.
//
// Without a PostgreSQL server, NewDatabase skips t, or fails it when the CI
// environment variable is set.
func NewDatabase(t testing.TB) string {
	t.Helper()
	return shared.newDatabase(t)
}

// NewControlledDatabase is NewDatabase on the controlled server: the one
// that Stop, Start, Freeze, Thaw, Kill and NewReplica act on. A test that
// takes its database down, or replicates it, gets it here.
//
// The controlled server is the shared one when the harness runs that from
// local binaries. When the shared server comes from TEST_DATABASE_URL or a
// container, which the harness cannot stop or signal, the controlled one is
// a second server run from the local PostgreSQL server binaries, started on
// first use. Without those binaries t is skipped, or failed when the CI
// environment variable is set.
func NewControlledDatabase(t testing.TB) string {
	t.Helper()
	return shared.newControlledDatabase(t)
}

func (h *harness) newDatabase(t testing.TB) string {
	t.Helper()
	srv, name := h.nextDatabase(t, (*harness).server)
	return createFor(t, srv, name)
}

func (h *harness) newControlledDatabase(t testing.TB) string {
	t.Helper()
	srv, name := h.nextDatabase(t, func(h *harness, t testing.TB) server {
		t.Helper()
		srv := h.controlled(t)
		h.held++
		return srv
	})
	t.Cleanup(func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.held--
	})
	return createFor(t, srv, name)
}

// nextDatabase returns the server that pick chooses and a new database
// name for t. The lock is released by defer, as skipping or failing t exits
// the goroutine.
func (h *harness) nextDatabase(t testing.TB, pick func(*harness, testing.TB) server) (server, string) {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	srv := pick(h, t)
	h.seq++
	return srv, databaseName(t.Name(), h.seq)
}

// createFor creates the database name on srv, dropped when t ends, and
// returns its URL.
func createFor(t testing.TB, srv server, name string) string {
	t.Helper()
	admin := srv.adminURL()
	ctx, cancel := context.WithTimeout(context.Background(), statementTimeout)
	defer cancel()
	if err := createDatabase(ctx, admin, name); err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), statementTimeout)
		defer cancel()
		if err := dropDatabase(ctx, admin, name); err != nil {
			t.Errorf("pgtest: %v", err)
		}
	})
	dsn, err := withDatabase(admin, name)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	return dsn
}

// controlled returns the controlled server (see NewControlledDatabase),
// starting a second server from local binaries on first use when the shared
// one does not run from them. Without the binaries it ends t through
// testkit.Missing. The caller must hold h.mu and release it by defer.
func (h *harness) controlled(t testing.TB) *localServer {
	t.Helper()
	srv := h.server(t)
	if local, ok := srv.(*localServer); ok {
		return local
	}
	if !h.ctlStarted {
		h.ctlStarted = true
		ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
		h.ctl, h.ctlErr = newLocalServer(ctx)
		cancel()
	}
	if h.ctlErr != nil {
		var unavailable *unavailableError
		if !errors.As(h.ctlErr, &unavailable) {
			t.Fatalf("pgtest: start a PostgreSQL server to stop, freeze, kill or replicate: %v", h.ctlErr)
		}
		testkit.Missing(t, fmt.Sprintf(
			"the PostgreSQL server binaries (apt-get install postgresql, or set PG_BINDIR) to run a server it may stop, freeze, kill or replicate;"+
				" the shared one is %s, which the harness cannot control (%s)",
			srv.source(), strings.Join(unavailable.reasons, "; ")))
	}
	return h.ctl
}

// outageTarget returns the controlled server for op (Stop, Kill...), failing
// t when no test holds a database on it: the outage would then miss the
// test's own database, which NewDatabase may have put on another server.
// The caller must hold h.mu and release it by defer.
func (h *harness) outageTarget(t testing.TB, op string) *localServer {
	t.Helper()
	srv := h.controlled(t)
	if h.held == 0 {
		t.Fatalf("pgtest: %s acts on the server of NewControlledDatabase, and no test holds a database there: get the test's database from NewControlledDatabase", op)
	}
	return srv
}

// Stop shuts the controlled PostgreSQL server down (see
// NewControlledDatabase), keeping its data and port, so t can watch the
// service lose its database; Start brings it back. If t ends with the
// server stopped, it is started again for the tests that follow. t must
// hold a database from NewControlledDatabase.
//
// The controlled server may be the shared one, so a test that calls Stop
// must not call t.Parallel: Go runs parallel tests only after the
// sequential ones, so none of them sees the outage.
func Stop(t testing.TB) {
	t.Helper()
	shared.stop(t)
}

func (h *harness) stop(t testing.TB) {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	srv := h.outageTarget(t, "Stop")
	if !srv.running() {
		t.Fatal("pgtest: Stop called while the server is already stopped")
	}
	ctx, cancel := context.WithTimeout(context.Background(), stopTimeout)
	defer cancel()
	if err := srv.stop(ctx); err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	h.restartWhenDone(t, srv)
}

// restartWhenDone starts srv again when t ends, if t left it down and it is
// still one of h's servers, so that the tests after t find it running.
func (h *harness) restartWhenDone(t testing.TB, srv *localServer) {
	t.Cleanup(func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		if srv.running() || !h.owns(srv) {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
		defer cancel()
		if err := srv.start(ctx); err != nil {
			t.Errorf("pgtest: restart after %s: %v", t.Name(), err)
		}
	})
}

// owns reports whether srv is one of h's servers, not torn down yet. The
// caller must hold h.mu.
func (h *harness) owns(srv *localServer) bool {
	return srv == h.ctl || h.srv != nil && h.srv == server(srv)
}

// Start starts the controlled server that Stop stopped or Kill killed, on
// the same port and data directory, and waits until it accepts
// connections.
func Start(t testing.TB) {
	t.Helper()
	shared.start(t)
}

func (h *harness) start(t testing.TB) {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	srv := h.outageTarget(t, "Start")
	if srv.running() {
		t.Fatal("pgtest: Start called while the server is running; call Stop first")
	}
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	if err := srv.start(ctx); err != nil {
		t.Fatalf("pgtest: %v", err)
	}
}
