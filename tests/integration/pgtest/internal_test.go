package pgtest

import (
	"strings"
	"testing"
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
