package migrationversion_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asapjs/fiber-template/internal/migrationversion"
)

// dirWith returns a new directory holding the files, by name and content.
func dirWith(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// ledger is a ledger's content with the lines.
func ledger(lines ...string) string {
	return "# issued\n" + strings.Join(lines, "\n") + "\n"
}

func TestNextIn(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 5, 1, 14, 0, 0, 700_000_000, time.FixedZone("CEST", 2*3600))
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"none yet: now in UTC, to the second", nil, "20260501120000"},
		{"older files leave it at now", map[string]string{"20250601000000_create_users.go": ""}, "20260501120000"},
		{"one made this second is followed", map[string]string{"20260501120000_create_orders.go": ""}, "20260501120001"},
		{"one dated ahead of the clock is followed", map[string]string{"20260501120000_a.go": "", "20270101000000_b.go": ""}, "20270101000001"},
		{"the last second of a day", map[string]string{"20260501235959_a.go": ""}, "20260502000000"},
		{"files that are no migrations do not count", map[string]string{
			"tables.go": "", "doc.go": "", "2026_x.go": "", "20990101000000_x_test.go": "", "99999999999999.go": "",
		}, "20260501120000"},
		{"a version the ledger issued to a deleted file is never issued again", map[string]string{
			"20260501120000_create_orders.go": "",
			migrationversion.LedgerFile:       ledger("20260501120000 create_orders", "20270101000003 create_gadgets"),
		}, "20270101000004"},
		{"a ledger behind the files does not hold them back", map[string]string{
			"20270101000000_b.go": "", migrationversion.LedgerFile: ledger("20250601000000 create_users"),
		}, "20270101000001"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := migrationversion.NextIn(dirWith(t, tt.files), now)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("NextIn = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestNextInRefuses(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"a file whose version is no time", map[string]string{"20261399000000_bad.go": ""}, "20261399000000_bad.go"},
		{"a ledger version that is no time", map[string]string{migrationversion.LedgerFile: ledger("20261399000000 bad")}, "versions.txt:2"},
		{"a ledger line that is no entry", map[string]string{migrationversion.LedgerFile: ledger("20260101000000")}, "want VERSION NAME"},
		{"a version the ledger issued twice", map[string]string{
			migrationversion.LedgerFile: ledger("20260101000000 a", "20260101000000 b"),
		}, "issued already, on line 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if _, err := migrationversion.NextIn(dirWith(t, tt.files), now); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestRecord(t *testing.T) {
	t.Parallel()
	t.Run("a missing ledger is started with the files there", func(t *testing.T) {
		t.Parallel()
		dir := dirWith(t, map[string]string{"20250601000000_create_users.go": "", "doc.go": ""})
		if err := migrationversion.Record(dir, migrationversion.Migration{Version: "20260101000000", Name: "create_orders"}); err != nil {
			t.Fatal(err)
		}
		got, err := migrationversion.ReadLedger(dir)
		if err != nil {
			t.Fatal(err)
		}
		want := []migrationversion.Migration{{"20250601000000", "create_users"}, {"20260101000000", "create_orders"}}
		if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
			t.Errorf("the ledger holds %v, want %v", got, want)
		}
	})
	t.Run("a line is appended, comments kept", func(t *testing.T) {
		t.Parallel()
		dir := dirWith(t, map[string]string{migrationversion.LedgerFile: "# keep me\n20250601000000 create_users"})
		if err := migrationversion.Record(dir, migrationversion.Migration{Version: "20260101000000", Name: "create_orders"}); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(dir, migrationversion.LedgerFile))
		if err != nil {
			t.Fatal(err)
		}
		if want := "# keep me\n20250601000000 create_users\n20260101000000 create_orders\n"; string(data) != want {
			t.Errorf("the ledger reads %q, want %q", data, want)
		}
	})
	t.Run("an empty ledger gets its first line", func(t *testing.T) {
		t.Parallel()
		dir := dirWith(t, map[string]string{migrationversion.LedgerFile: ""})
		if err := migrationversion.Record(dir, migrationversion.Migration{Version: "20260101000000", Name: "create_orders"}); err != nil {
			t.Fatal(err)
		}
		if data, err := os.ReadFile(filepath.Join(dir, migrationversion.LedgerFile)); err != nil || string(data) != "20260101000000 create_orders\n" {
			t.Errorf("the ledger reads %q (%v)", data, err)
		}
	})
	t.Run("a ledger that cannot be read is an error", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		if err := os.Mkdir(filepath.Join(dir, migrationversion.LedgerFile), 0o755); err != nil {
			t.Fatal(err)
		}
		err := migrationversion.Record(dir, migrationversion.Migration{Version: "20260101000000", Name: "create_orders"})
		if err == nil || !strings.Contains(err.Error(), "read the migration ledger") {
			t.Errorf("error %v, want one saying the ledger could not be read", err)
		}
	})
	t.Run("a version issued before is refused", func(t *testing.T) {
		t.Parallel()
		dir := dirWith(t, map[string]string{migrationversion.LedgerFile: ledger("20260101000000 create_gadgets")})
		err := migrationversion.Record(dir, migrationversion.Migration{Version: "20260101000000", Name: "create_widgets"})
		if err == nil || !strings.Contains(err.Error(), "issued already, to create_gadgets") {
			t.Errorf("error %v, want one naming create_gadgets", err)
		}
	})
}

func TestCheck(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		files map[string]string
		want  []string // nil: no error
	}{
		{"every file recorded", map[string]string{
			"20250601000000_create_users.go": "", migrationversion.LedgerFile: ledger("20250601000000 create_users", "20260101000000 create_gone"),
		}, nil},
		{"a file the ledger lacks", map[string]string{
			"20250601000000_create_users.go": "", migrationversion.LedgerFile: ledger(),
		}, []string{"20250601000000_create_users.go is not in", `add the line "20250601000000 create_users"`}},
		{"a file under a version issued to another name", map[string]string{
			"20260101000000_create_widgets.go": "", migrationversion.LedgerFile: ledger("20260101000000 create_gadgets"),
		}, []string{"version 20260101000000 was issued to create_gadgets", "never runs it", "migrate new create_widgets"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := migrationversion.Check(dirWith(t, tt.files))
			if tt.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			for _, w := range tt.want {
				if err == nil || !strings.Contains(err.Error(), w) {
					t.Errorf("error %v, want one containing %q", err, w)
				}
			}
		})
	}
}
