package changelog

import (
	"bufio"
	"bytes"
	"regexp"
	"strings"
)

// addedName is the name an entry of "### Added" opens with: `pkg.Name`,
// followed by anything but another dot (a method, `pkg.Type.Method`, is
// not read).
var addedName = regexp.MustCompile("^- `([a-z][a-z0-9]*\\.[A-Z][A-Za-z0-9_]*)(?:[^.A-Za-z0-9_][^`]*)?`")

// UnreleasedAdditions returns the names, as pkg.Name, that the entries
// under "### Added" of the "## Unreleased" section open with: what the
// platform exports that no release has yet, which a service requiring the
// newest release cannot use.
func UnreleasedAdditions(text []byte) []string {
	var names []string
	inUnreleased, inAdded := false, false
	sc := bufio.NewScanner(bytes.NewReader(text))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## "):
			heading := strings.Trim(strings.TrimSpace(line[3:]), "[]")
			inUnreleased, inAdded = strings.EqualFold(heading, "Unreleased"), false
		case strings.HasPrefix(line, "### "):
			inAdded = strings.TrimSpace(line[4:]) == "Added"
		case inUnreleased && inAdded:
			if m := addedName.FindStringSubmatch(line); m != nil {
				names = append(names, m[1])
			}
		}
	}
	return names
}
