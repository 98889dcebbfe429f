package apigate

import "testing"

// TestAPIGateReadsTheChangelog: the released version is the newest
// release heading wherever it stands, and an incompatible change counts as
// written down only as an entry under its own subsection, in Unreleased or
// in a release the base's changelog does not have yet.
func TestAPIGateReadsTheChangelog(t *testing.T) {
	t.Parallel()
	const base = "# Changelog\n\n## Unreleased\n\n## [1.0.0] - 2026-11-27\n\n### Removed\n\n- `Old`.\n"
	cases := []struct {
		name     string
		head     string
		released string // "" when none
		written  bool
	}{
		{"no release yet", "## Unreleased\n\n### Removed\n\n- `X`.\n", "", true},
		{"the base's release only", base, "v1.0.0", false},
		{"removed, under Unreleased", "## Unreleased\n\n### Removed\n\n- `Farewell`.\n\n## [1.0.0] - 2026-11-27\n", "v1.0.0", true},
		{"changed incompatibly, under Unreleased", "## Unreleased\n\n### Changed (incompatible)\n\n* `F` takes a context.\n\n## [1.0.0]\n", "v1.0.0", true},
		{"a heading without an entry", "## Unreleased\n\n### Removed\n\n## [1.0.0] - 2026-11-27\n", "v1.0.0", false},
		{"an entry under Added", "## Unreleased\n\n### Added\n\n- `Welcome`.\n\n## [1.0.0] - 2026-11-27\n", "v1.0.0", false},
		{"the release being cut", "## Unreleased\n\n## [2.0.0] - 2026-12-01\n\n### Removed\n\n- `Farewell`.\n\n## [1.0.0] - 2026-11-27\n", "v2.0.0", true},
		{"newest by version, not by place", "## [1.10.0]\n\n## [1.9.3]\n\n## [2.0.0-rc.1]\n", "v2.0.0", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v, ok := released(tc.head)
			if got := map[bool]string{true: v.String(), false: ""}[ok]; got != tc.released {
				t.Errorf("released = %q, want %q", got, tc.released)
			}
			if got := writtenDown(tc.head, base); got != tc.written {
				t.Errorf("writtenDown = %t, want %t", got, tc.written)
			}
		})
	}
}
