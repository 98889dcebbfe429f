// Package changelog reads the releases a Keep a Changelog file names: the
// platform's changelog is where its version is written down, and the
// starter, the API gate and the tests that publish the platform on a file
// GOPROXY all read the newest release from it.
package changelog

import (
	"fmt"
	"os"
	"regexp"

	"golang.org/x/mod/semver"
)

// FirstRelease is the version the platform is published as while its
// changelog names no release.
const FirstRelease = "v1.0.0"

// releaseHeading is a release's heading: "## [1.2.0] - 2026-12-01"
// (a leading v is allowed, and a pre-release such as 1.2.0-rc.1).
var releaseHeading = regexp.MustCompile(`(?m)^## \[v?([0-9]+\.[0-9]+\.[0-9]+(?:-[0-9A-Za-z.-]+)?)\]`)

// Newest returns the highest version among the release headings of a
// changelog, as vX.Y.Z, and whether it has one. "## [Unreleased]" is no
// release.
func Newest(text []byte) (string, bool) {
	newest := ""
	for _, m := range releaseHeading.FindAllSubmatch(text, -1) {
		v := "v" + string(m[1])
		if semver.IsValid(v) && (newest == "" || semver.Compare(v, newest) > 0) {
			newest = v
		}
	}
	return newest, newest != ""
}

// NewestOrFirst is Newest, or FirstRelease when the changelog names no
// release: the version a rename in library mode requires by default.
func NewestOrFirst(text []byte) string {
	if v, ok := Newest(text); ok {
		return v
	}
	return FirstRelease
}

// NewestOrFirstOf is NewestOrFirst of the changelog file name: the
// version rename --library requires of a tree whose platform's changelog
// it is.
func NewestOrFirstOf(name string) (string, error) {
	text, err := os.ReadFile(name)
	if err != nil {
		return "", fmt.Errorf("read the platform's release from its changelog: %w", err)
	}
	return NewestOrFirst(text), nil
}
