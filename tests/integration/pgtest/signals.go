package pgtest

import (
	"testing"

	"github.com/asapjs/fiber-template/internal/testkit"
)

// Freeze stops every process of the controlled PostgreSQL server (see
// NewControlledDatabase) with SIGSTOP, the postmaster first so it starts no
// more, then its backends: the server keeps its connections open and its
// port listening but answers nothing, as a host that stalls or a paused
// container does. Thaw resumes it; if t ends with the server frozen, it is
// thawed.
//
// Like Stop, it needs t to hold a database from NewControlledDatabase, and
// a test calling it must not call t.Parallel. Finding the backends needs
// Linux; elsewhere t is skipped, or failed when CI is set.
func Freeze(t testing.TB) {
	t.Helper()
	shared.freeze(t)
}

func (h *harness) freeze(t testing.TB) {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	srv := h.signalable(t, "Freeze")
	if err := srv.freeze(); err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		if err := srv.thaw(); err != nil {
			t.Errorf("pgtest: thaw after %s: %v", t.Name(), err)
		}
	})
}

// Thaw resumes the server that Freeze stopped, with SIGCONT.
func Thaw(t testing.TB) {
	t.Helper()
	shared.thaw(t)
}

func (h *harness) thaw(t testing.TB) {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.signalable(t, "Thaw").thaw(); err != nil {
		t.Fatalf("pgtest: %v", err)
	}
}

// Kill ends every process of the controlled PostgreSQL server with
// SIGKILL, as a crash or an out-of-memory kill would: nothing is shut down
// cleanly and open connections are reset. Start brings it back through
// crash recovery, same port, same data; if t ends with the server down, it
// is started again. The requirements are Freeze's.
func Kill(t testing.TB) {
	t.Helper()
	shared.kill(t)
}

func (h *harness) kill(t testing.TB) {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	srv := h.signalable(t, "Kill")
	if !srv.running() {
		t.Fatal("pgtest: Kill called while the server is stopped")
	}
	if err := srv.kill(); err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	h.restartWhenDone(t, srv)
}

// signalable returns the controlled server for op if the harness can
// signal its processes here, and ends t through testkit.Missing otherwise.
// The caller must hold h.mu and release it by defer.
func (h *harness) signalable(t testing.TB, op string) *localServer {
	t.Helper()
	srv := h.outageTarget(t, op)
	if !canListChildren {
		testkit.Missing(t, "Linux, whose /proc lists the PostgreSQL backends that "+op+" signals")
	}
	return srv
}
