package changelog

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestNewest(t *testing.T) {
	for _, tc := range []struct {
		name, text, want string
		ok               bool
	}{
		{"no release", "# Changelog\n\n## [Unreleased]\n\n- a change\n", "", false},
		{"one release", "## [Unreleased]\n\n## [1.0.0] - 2026-11-27\n", "v1.0.0", true},
		{"the highest, not the first", "## [1.2.0] - 2026-12-01\n## [1.10.0] - 2026-12-02\n## [1.9.3]\n", "v1.10.0", true},
		{"a leading v", "## [v2.0.1] - 2027-01-01\n", "v2.0.1", true},
		{"a pre-release below its release", "## [1.1.0-rc.1]\n## [1.1.0]\n", "v1.1.0", true},
		{"a pre-release alone", "## [1.1.0-rc.1]\n## [1.0.0]\n", "v1.1.0-rc.1", true},
		{"a heading not at a line start", "text ## [3.0.0]\n## [1.0.0]\n", "v1.0.0", true},
		{"a third-level heading is no release", "### [4.0.0]\n", "", false},
		{"a leading zero is no version", "## [01.2.3]\n", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := Newest([]byte(tc.text))
			if got != tc.want || ok != tc.ok {
				t.Errorf("Newest(%q) = %q, %t; want %q, %t", tc.text, got, ok, tc.want, tc.ok)
			}
			want := tc.want
			if !tc.ok {
				want = FirstRelease
			}
			if got := NewestOrFirst([]byte(tc.text)); got != want {
				t.Errorf("NewestOrFirst(%q) = %q, want %q", tc.text, got, want)
			}
		})
	}
}

// TestNewestOrFirstOf reads a changelog file, and a missing one is an
// error that says the file does not exist.
func TestNewestOrFirstOf(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "CHANGELOG.md")
	if err := os.WriteFile(name, []byte("## [Unreleased]\n\n## [1.2.0] - 2026-12-01\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if v, err := NewestOrFirstOf(name); v != "v1.2.0" || err != nil {
		t.Errorf("NewestOrFirstOf = %q, %v; want v1.2.0", v, err)
	}
	if _, err := NewestOrFirstOf(filepath.Join(dir, "missing.md")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("NewestOrFirstOf of a missing file: %v, want fs.ErrNotExist", err)
	}
}

func TestUnreleasedAdditions(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"nothing unreleased", "## Unreleased\n\n## [1.0.0] - 2026-11-27\n\n### Added\n\n- `database.One[T](ctx, q)`: a row.\n", nil},
		{"added, then changed", "# Changelog\n\n## Unreleased\n\n### Added\n\n- `database.One[T](ctx, q)`: a row,\n  read through pgx.\n- `paging.Walk`, to walk.\n\n### Changed\n\n- `router.New` checks more.\n\n## [1.0.0] - 2026-11-27\n\n### Added\n\n- `router.Old`.\n",
			[]string{"database.One", "paging.Walk"}},
		{"bracketed heading", "## [Unreleased]\n### Added\n- `problem.New(status)`\n", []string{"problem.New"}},
		{"a method or prose is no name", "## Unreleased\n### Added\n- `router.Ctx.Deadline()`: a method.\n- A new `router.Option`.\n- `Config.Field`.\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := UnreleasedAdditions([]byte(tc.text)); !slices.Equal(got, tc.want) {
				t.Errorf("UnreleasedAdditions = %q, want %q", got, tc.want)
			}
		})
	}
}
