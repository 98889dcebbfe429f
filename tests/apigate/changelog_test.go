package apigate

import (
	"fmt"
	"strings"

	"github.com/asapjs/fiber-template/internal/changelog"
)

// version is a release's semantic version.
type version struct{ major, minor, patch int }

func (v version) String() string { return fmt.Sprintf("v%d.%d.%d", v.major, v.minor, v.patch) }

var (
	// incompatibleKinds are the subsections of a section that write down
	// an incompatible change.
	incompatibleKinds = []string{"### Changed (incompatible)", "### Removed"}
)

// released returns the newest version platform/CHANGELOG.md has a heading
// for, and false when it has none: the platform is not released yet.
func released(text string) (version, bool) {
	newest, ok := changelog.Newest([]byte(text))
	if !ok {
		return version{}, false
	}
	var v version
	if _, err := fmt.Sscanf(newest, "v%d.%d.%d", &v.major, &v.minor, &v.patch); err != nil {
		panic(fmt.Sprintf("changelog.Newest gave %q, not a vX.Y.Z", newest))
	}
	return v, true
}

// sections splits a changelog into its "## " sections: each heading line
// with the text below it, up to the next.
func sections(changelog string) map[string]string {
	out := map[string]string{}
	heading := ""
	var body strings.Builder
	flush := func() {
		if heading != "" {
			out[heading] = body.String()
		}
		body.Reset()
	}
	for line := range strings.Lines(changelog) {
		if strings.HasPrefix(line, "## ") {
			flush()
			heading = strings.TrimSpace(line)
			continue
		}
		body.WriteString(line)
	}
	flush()
	return out
}

// notesIncompatible reports whether a section has an entry (a list item)
// under "### Changed (incompatible)" or "### Removed".
func notesIncompatible(section string) bool {
	in := false
	for line := range strings.Lines(section) {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "### "):
			in = false
			for _, kind := range incompatibleKinds {
				in = in || strings.EqualFold(line, kind)
			}
		case in && (strings.HasPrefix(line, "- ") || strings.HasPrefix(line, "* ")):
			return true
		}
	}
	return false
}

// writtenDown reports whether the changelog at HEAD writes down an
// incompatible change since the base: in its Unreleased section, or in a
// release's section that the base's changelog does not have yet (the
// release being cut, its Unreleased section renamed).
func writtenDown(head, base string) bool {
	old := sections(base)
	for heading, body := range sections(head) {
		_, before := old[heading]
		unreleased := strings.EqualFold(strings.Trim(strings.TrimPrefix(heading, "## "), "[] "), "Unreleased")
		if (unreleased || !before) && notesIncompatible(body) {
			return true
		}
	}
	return false
}
