package pgtest

import (
	"testing"
)

// Freeze stops every process of the PostgreSQL server with SIGSTOP, the
// postmaster first so it starts no more, then its backends: the server
// keeps its connections open and its port listening but answers nothing,
// as a host that stalls or a paused container does. Thaw resumes it; if t
// ends with the server frozen, it is thawed.
//
// Like Stop, it needs the harness to run the server from local binaries
// (and Linux, to find the backends) and skips t otherwise; a test calling
// it must not call t.Parallel.
func Freeze(t testing.TB) {
	t.Helper()
	shared.mu.Lock()
	defer shared.mu.Unlock()
	srv := shared.signalable(t)
	if err := srv.freeze(); err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(func() {
		shared.mu.Lock()
		defer shared.mu.Unlock()
		if err := srv.thaw(); err != nil {
			t.Errorf("pgtest: thaw after %s: %v", t.Name(), err)
		}
	})
}

// Thaw resumes the server that Freeze stopped, with SIGCONT.
func Thaw(t testing.TB) {
	t.Helper()
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if err := shared.signalable(t).thaw(); err != nil {
		t.Fatalf("pgtest: %v", err)
	}
}

// Kill ends every process of the PostgreSQL server with SIGKILL, as a
// crash or an out-of-memory kill would: nothing is shut down cleanly and
// open connections are reset. Start brings it back through crash recovery,
// same port, same data; if t ends with the server down, it is started
// again. The requirements are Freeze's.
func Kill(t testing.TB) {
	t.Helper()
	shared.mu.Lock()
	defer shared.mu.Unlock()
	srv := shared.signalable(t)
	if !srv.running() {
		t.Fatal("pgtest: Kill called while the server is stopped")
	}
	if err := srv.kill(); err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	restartWhenDone(t, srv)
}

// signalable is a server whose processes the harness can signal.
type signalable interface {
	restartable
	// freeze stops the server's processes; thaw resumes them.
	freeze() error
	thaw() error
	// kill ends the server's processes at once.
	kill() error
}

// signalable returns the server if the harness can signal its processes,
// and skips t otherwise. The caller must hold h.mu.
func (h *harness) signalable(t testing.TB) signalable {
	t.Helper()
	srv := h.restartable(t)
	s, ok := srv.(signalable)
	if !ok || !canListChildren {
		t.Skipf("pgtest: signalling the server's processes needs local binaries on Linux, but it uses %s", srv.source())
	}
	return s
}
