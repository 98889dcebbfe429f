package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"time"
)

// versionLayout is the layout of a migration's version: a UTC timestamp
// to the second, the prefix of its file name ("20250601000000_create_users.go").
const versionLayout = "20060102150405"

// versionPrefix is the version a migration file's name starts with.
var versionPrefix = regexp.MustCompile(`^(\d{14})_.*\.go$`)

// nextVersion returns the version of a new migration in root's migrations/:
// now in UTC, or one second past the newest existing migration when that
// is as new or newer. Bun orders migrations and records the applied ones
// by version, so two migrations with one version would pass for one:
// resources generated within one second, or after a migration dated ahead
// of the clock, each still get a version of their own, in the order they
// were made.
func nextVersion(root string, now time.Time) (string, error) {
	next := now.UTC().Truncate(time.Second)
	entries, err := os.ReadDir(filepath.Join(root, "migrations"))
	if errors.Is(err, fs.ErrNotExist) {
		return next.Format(versionLayout), nil
	}
	if err != nil {
		return "", fmt.Errorf("read migrations: %w", err)
	}
	for _, e := range entries {
		m := versionPrefix.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		v, err := time.Parse(versionLayout, m[1])
		if err != nil {
			return "", fmt.Errorf("migrations/%s: its version %s is not a timestamp (%s): %w", e.Name(), m[1], versionLayout, err)
		}
		if !v.Before(next) {
			next = v.Add(time.Second)
		}
	}
	return next.Format(versionLayout), nil
}
