package pgtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/asapjs/fiber-template/internal/testkit"
)

// Replica is a streaming replica of the controlled server (see
// NewControlledDatabase): a hot standby serving reads, made with
// pg_basebackup -R into a data directory of its own and run on another
// port, as the same OS user as the primary.
type Replica struct {
	srv     *localServer
	primary *localServer
}

// NewReplica starts a streaming replica of the controlled server for t,
// and waits until it accepts connections; it is stopped and removed when t
// ends. Databases created by NewControlledDatabase before or after appear
// on the replica (see Replica.URL and Replica.WaitCaughtUp).
//
// A replica needs the local PostgreSQL server binaries, as the controlled
// server does; without them t is skipped, or failed when CI is set.
func NewReplica(t testing.TB) *Replica {
	t.Helper()
	return shared.newReplica(t)
}

func (h *harness) newReplica(t testing.TB) *Replica {
	t.Helper()
	primary, seq := h.replicaSource(t)
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	dir, err := os.MkdirTemp(os.TempDir(), dirPattern)
	if err != nil {
		t.Fatalf("pgtest: create replica directory: %v", err)
	}
	s := &localServer{bindir: primary.bindir, dir: dir, owner: primary.owner}
	// A slot of its own keeps the primary's WAL until the replica has it,
	// however much the other tests write meanwhile. It is made here, with
	// its WAL reserved at once, rather than by pg_basebackup --create-slot:
	// that one is made only when the backup's WAL stream starts, after the
	// backup's checkpoint, and a checkpoint in between (the other tests
	// write a lot) can remove a segment the backup still needs.
	slot := "pgtest_replica_" + strconv.Itoa(seq)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), stopTimeout)
		defer cancel()
		if err := s.close(ctx); err != nil {
			t.Errorf("pgtest: replica: %v", err)
		}
		var dropped any
		if err := queryRow(ctx, primary.adminURL(), "SELECT pg_drop_replication_slot(slot_name)::text FROM pg_replication_slots WHERE slot_name = '"+slot+"'", &dropped); err != nil && !errors.Is(err, pgx.ErrNoRows) {
			t.Errorf("pgtest: drop replication slot %s: %v", slot, err)
		}
	})
	if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		t.Fatalf("pgtest: mark replica directory: %v", err)
	}
	var made any
	if err := queryRow(ctx, primary.adminURL(), "SELECT pg_create_physical_replication_slot('"+slot+"', true)::text", &made); err != nil {
		t.Fatalf("pgtest: create replication slot %s: %v", slot, err)
	}
	if err := s.baseBackup(ctx, primary, slot); err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	if s.port, err = testkit.FreePort(); err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	if err := s.start(ctx); err != nil {
		t.Fatalf("pgtest: start replica: %v", err)
	}
	return &Replica{srv: s, primary: primary}
}

// replicaSource returns the controlled server, which a replica follows, and
// a number no other caller gets. The lock is released by defer, as skipping
// or failing t exits the goroutine.
func (h *harness) replicaSource(t testing.TB) (*localServer, int) {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	srv := h.controlled(t)
	h.seq++
	return srv, h.seq
}

// baseBackup copies the primary's cluster into s's data directory with
// pg_basebackup -R, which writes the standby settings that make the copy
// follow the primary, through the replication slot slot, which must exist.
func (s *localServer) baseBackup(ctx context.Context, primary *localServer, slot string) error {
	if err := s.handToOwner(); err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, filepath.Join(s.bindir, "pg_basebackup"),
		"--pgdata", s.dataDir(), "--write-recovery-conf", "--wal-method", "stream",
		"--checkpoint", "fast", "--no-sync", "--slot", slot,
		"--host", "127.0.0.1", "--port", strconv.Itoa(primary.port), "--username", "postgres")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	s.prepare(cmd)
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("pg_basebackup into %s: %w\n%s", s.dir, err, strings.TrimSpace(out.String()))
	}
	return nil
}

// URL returns the replica's URL of the database that the URL primaryDSN
// (from NewControlledDatabase) names. A database on another server fails
// t: the replica would never have it.
func (r *Replica) URL(t testing.TB, primaryDSN string) string {
	t.Helper()
	cfg, err := pgx.ParseConfig(primaryDSN)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	if cfg.Host != "127.0.0.1" || int(cfg.Port) != r.primary.port {
		t.Fatalf("pgtest: database %s is on %s:%d, not on the server the replica follows (127.0.0.1:%d): get it from NewControlledDatabase",
			cfg.Database, cfg.Host, cfg.Port, r.primary.port)
	}
	u, err := withDatabase(r.srv.adminURL(), cfg.Database)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	return u
}

// WaitCaughtUp waits until the replica has replayed everything the
// primary had written when it was called.
func (r *Replica) WaitCaughtUp(t testing.TB) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	var lsn string
	if err := queryRow(ctx, r.primary.adminURL(), "SELECT pg_current_wal_insert_lsn()::text", &lsn); err != nil {
		t.Fatalf("pgtest: primary position: %v", err)
	}
	for {
		var done bool
		err := queryRow(ctx, r.srv.adminURL(), "SELECT coalesce(pg_last_wal_replay_lsn() >= '"+lsn+"'::pg_lsn, false)", &done)
		if err == nil && done {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("pgtest: the replica did not replay up to %s: %v (last: %v)", lsn, ctx.Err(), err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// PauseReplay stops the replica from applying what the primary writes, so
// that it serves an older copy, as a lagging replica does, until t ends or
// ResumeReplay.
func (r *Replica) PauseReplay(t testing.TB) {
	t.Helper()
	r.exec(t, "SELECT pg_wal_replay_pause()")
	t.Cleanup(func() {
		if r.srv.running() {
			r.exec(t, "SELECT pg_wal_replay_resume()")
		}
	})
}

// ResumeReplay undoes PauseReplay.
func (r *Replica) ResumeReplay(t testing.TB) {
	t.Helper()
	r.exec(t, "SELECT pg_wal_replay_resume()")
}

func (r *Replica) exec(t testing.TB, sql string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), statementTimeout)
	defer cancel()
	conn, err := pgx.Connect(ctx, r.srv.adminURL())
	if err != nil {
		t.Fatalf("pgtest: replica: %v", err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, sql); err != nil {
		t.Fatalf("pgtest: replica: %s: %v", sql, err)
	}
}

// Stop shuts the replica down, keeping its data and port; Start brings it
// back, following the primary again.
func (r *Replica) Stop(t testing.TB) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), stopTimeout)
	defer cancel()
	if err := r.srv.stop(ctx); err != nil {
		t.Fatalf("pgtest: stop replica: %v", err)
	}
}

// Start starts the replica that Stop stopped and waits until it accepts
// connections.
func (r *Replica) Start(t testing.TB) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	if err := r.srv.start(ctx); err != nil {
		t.Fatalf("pgtest: start replica: %v", err)
	}
}

// queryRow runs one query on a connection of its own and scans its row.
func queryRow(ctx context.Context, url, sql string, dest any) error {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	return conn.QueryRow(ctx, sql).Scan(dest)
}
