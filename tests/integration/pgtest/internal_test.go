package pgtest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

func TestDatabaseName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		testName string
		seq      int
		want     string
	}{
		{"a plain name is lowercased", "TestHealth", 1, "pgtest_testhealth_1"},
		{"punctuation collapses into one underscore", "TestHealth/answers_ok_(PostgreSQL)", 7, "pgtest_testhealth_answers_ok_postgresql_7"},
		{"a long name is cut to fit PostgreSQL's limit", strings.Repeat("x", 200), 123456, "pgtest_" + strings.Repeat("x", 43) + "_123456"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := databaseName(tt.testName, tt.seq)
			if got != tt.want {
				t.Errorf("databaseName(%q, %d) = %q, want %q", tt.testName, tt.seq, got, tt.want)
			}
			if len(got) > 63 {
				t.Errorf("databaseName(%q, %d) is %d bytes, over PostgreSQL's 63", tt.testName, tt.seq, len(got))
			}
		})
	}
}

func TestCompareVersions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		a, b string
		sign int
	}{
		{"a higher major version sorts after", "/usr/lib/postgresql/16/bin", "/usr/lib/postgresql/9.6/bin", 1},
		{"a lower major version sorts before", "/usr/lib/postgresql/9.6/bin", "/usr/lib/postgresql/15/bin", -1},
		{"equal versions compare equal", "/usr/lib/postgresql/15/bin", "/usr/lib/postgresql/15/bin", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := compareVersions(tt.a, tt.b)
			if (got > 0) != (tt.sign > 0) || (got < 0) != (tt.sign < 0) {
				t.Errorf("compareVersions(%q, %q) = %d, want sign %d", tt.a, tt.b, got, tt.sign)
			}
		})
	}
}

func TestWithDatabase(t *testing.T) {
	t.Parallel()
	got, err := withDatabase("postgres://postgres:secret@127.0.0.1:5432/postgres?sslmode=disable", "pgtest_x_1")
	if err != nil {
		t.Fatal(err)
	}
	if want := "postgres://postgres:secret@127.0.0.1:5432/pgtest_x_1?sslmode=disable"; got != want {
		t.Errorf("withDatabase = %q, want %q", got, want)
	}
}

// TestControlledServer checks that the controlled server is the shared one
// when that runs from local binaries, and a second one otherwise.
func TestControlledServer(t *testing.T) {
	t.Parallel()
	dsn := NewControlledDatabase(t)
	shared.mu.Lock()
	srv, ctl := shared.srv, shared.ctl
	shared.mu.Unlock()
	want := ctl
	if local, ok := srv.(*localServer); ok {
		if ctl != nil {
			t.Errorf("a second server was started though the shared one, %s, runs from local binaries", srv.source())
		}
		want = local
	}
	if want == nil {
		t.Fatalf("the shared server is %s and no second server runs", srv.source())
	}
	if got := portOf(t, dsn); got != want.port {
		t.Errorf("the controlled database is on port %d, want %d (%s)", got, want.port, want.source())
	}
}

// TestControlledServerBesideTestDatabaseURL runs a harness of its own
// whose shared server comes from TEST_DATABASE_URL, as under docker
// compose, with CI set so that a skip would be a failure: outages and a
// replica act on a second server from local binaries and leave the shared
// one answering.
func TestControlledServerBesideTestDatabaseURL(t *testing.T) {
	// Not parallel: it sets environment variables.
	envURL := NewDatabase(t)
	t.Setenv("TEST_DATABASE_URL", envURL)
	t.Setenv("CI", "true")
	h := &harness{inMain: true}
	t.Cleanup(func() {
		if err := h.teardown(); err != nil {
			t.Error(err)
		}
	})
	dsn := h.newControlledDatabase(t)
	h.mu.Lock()
	srv, ctl := h.srv, h.ctl
	h.mu.Unlock()
	if _, ok := srv.(*envServer); !ok {
		t.Fatalf("the shared server is %s, want the server of TEST_DATABASE_URL", srv.source())
	}
	if ctl == nil || portOf(t, dsn) != ctl.port || portOf(t, dsn) == portOf(t, envURL) {
		t.Fatalf("the controlled database %s is not on a second server", dsn)
	}

	outages := []struct {
		name     string
		down, up func(testing.TB)
	}{
		{"Stop and Start", h.stop, h.start},
		{"Kill and Start", h.kill, h.start},
		{"Freeze and Thaw", h.freeze, h.thaw},
	}
	for _, o := range outages {
		t.Run(o.name+" act on the controlled server alone", func(t *testing.T) {
			o.down(t)
			if err := pingWithin(dsn, time.Second); err == nil {
				t.Fatal("the controlled server answers while it is down")
			}
			if err := pingWithin(envURL, 10*time.Second); err != nil {
				t.Fatalf("the server of TEST_DATABASE_URL does not answer: %v", err)
			}
			o.up(t)
			if err := pingWithin(dsn, 10*time.Second); err != nil {
				t.Fatalf("the controlled server does not answer once it is back: %v", err)
			}
		})
	}

	t.Run("a replica follows the controlled server", func(t *testing.T) {
		r := h.newReplica(t)
		ctx, cancel := context.WithTimeout(context.Background(), statementTimeout)
		defer cancel()
		conn, err := pgx.Connect(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(context.Background())
		if _, err := conn.Exec(ctx, "CREATE TABLE followed (id int)"); err != nil {
			t.Fatalf("create a table on the primary: %v", err)
		}
		r.WaitCaughtUp(t)
		var n int
		if err := queryRow(ctx, r.URL(t, dsn), "SELECT count(*) FROM followed", &n); err != nil {
			t.Fatalf("the replica lacks the primary's table: %v", err)
		}
	})
}

// portOf returns the port of a postgres:// URL.
func portOf(t *testing.T, dsn string) int {
	t.Helper()
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	return int(cfg.Port)
}

// pingWithin pings the server of url, giving up after wait.
func pingWithin(url string, wait time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	return ping(ctx, url)
}
