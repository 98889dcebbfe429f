package servicetest

import "regexp"

// linkRE finds the link-values of an RFC 8288 Link header.
var linkRE = regexp.MustCompile(`<([^>]*)>; rel="([a-z]+)"`)

// Links returns the targets of a Link header by relation:
// Links(`</a?page=2>; rel="next"`)["next"] is "/a?page=2".
func Links(header string) map[string]string {
	out := map[string]string{}
	for _, m := range linkRE.FindAllStringSubmatch(header, -1) {
		out[m[2]] = m[1]
	}
	return out
}
