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

// restartable is a server whose process the harness controls.
type restartable interface {
	server
	// stop shuts the server down, keeping its data directory and port.
	stop(ctx context.Context) error
	// start starts the stopped server again and waits until it answers.
	start(ctx context.Context) error
	// running reports whether the server process is up.
	running() bool
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

// harness is the server of the test binary: started on first use, torn
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

// teardown closes the server, if one was started; later requests fail.
func (h *harness) teardown() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.started = true
	h.err = errors.New("the PostgreSQL server was torn down after the tests")
	if h.srv == nil {
		return nil
	}
	srv := h.srv
	h.srv = nil
	ctx, cancel := context.WithTimeout(context.Background(), stopTimeout)
	defer cancel()
	if err := srv.close(ctx); err != nil {
		return fmt.Errorf("tear down %s: %w", srv.source(), err)
	}
	return nil
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
	srv, name := shared.nextDatabase(t)
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

// nextDatabase returns the server and a new database name for t. The lock
// is released by defer, as skipping or failing t exits the goroutine.
func (h *harness) nextDatabase(t testing.TB) (server, string) {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	srv := h.server(t)
	h.seq++
	return srv, databaseName(t.Name(), h.seq)
}

// Stop shuts the PostgreSQL server down, keeping its data and port, so t
// can watch the service lose its database; Start brings it back. If t ends
// with the server stopped, it is started again for the tests that follow.
//
// Stopping is only possible when the harness runs the server from local
// binaries; otherwise t is skipped. The server is shared, so a test that
// calls Stop must not call t.Parallel: Go runs parallel tests only after
// the sequential ones, so none of them sees the outage.
func Stop(t testing.TB) {
	t.Helper()
	shared.mu.Lock()
	defer shared.mu.Unlock()
	srv := shared.restartable(t)
	if !srv.running() {
		t.Fatal("pgtest: Stop called while the server is already stopped")
	}
	ctx, cancel := context.WithTimeout(context.Background(), stopTimeout)
	defer cancel()
	if err := srv.stop(ctx); err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	restartWhenDone(t, srv)
}

// restartWhenDone starts srv again when t ends, if t left it down and it is
// still the shared server, so that the tests after t find it running.
func restartWhenDone(t testing.TB, srv restartable) {
	t.Cleanup(func() {
		shared.mu.Lock()
		defer shared.mu.Unlock()
		if srv.running() || shared.srv != srv {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
		defer cancel()
		if err := srv.start(ctx); err != nil {
			t.Errorf("pgtest: restart after %s: %v", t.Name(), err)
		}
	})
}

// Start starts the server that Stop stopped, on the same port and data
// directory, and waits until it accepts connections.
func Start(t testing.TB) {
	t.Helper()
	shared.mu.Lock()
	defer shared.mu.Unlock()
	srv := shared.restartable(t)
	if srv.running() {
		t.Fatal("pgtest: Start called while the server is running; call Stop first")
	}
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	if err := srv.start(ctx); err != nil {
		t.Fatalf("pgtest: %v", err)
	}
}

// restartable returns the server if the harness controls its process, and
// skips t otherwise. The caller must hold h.mu.
func (h *harness) restartable(t testing.TB) restartable {
	t.Helper()
	srv := h.server(t)
	r, ok := srv.(restartable)
	if !ok {
		t.Skipf("pgtest: stopping the server needs the harness to run PostgreSQL from local binaries, but it uses %s", srv.source())
	}
	return r
}
