package changelog

import "testing"

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
