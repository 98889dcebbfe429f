// Package migrationversion numbers the migrations of the migrations
// directory, for every command that writes one (api migrate new, the
// starter's resource): one rule, in one place.
//
// A version is a UTC time to the second, the prefix of the migration's file
// name (20250601000000_create_users.go). Bun orders the migrations by it and
// records an applied one by it alone, so a version must never be issued
// twice: a new migration reusing the version of one a database applied
// would pass there for applied and never run. A new version is therefore
// past the newest migration file and past every version the ledger
// (versions.txt beside them) says was ever issued, including those whose
// files were deleted since.
package migrationversion

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Layout is the layout of a version, as time.Format takes it.
const Layout = "20060102150405"

// migrationFile matches the file of a migration, capturing its version and
// name. Tests beside the migrations are no migrations.
var migrationFile = regexp.MustCompile(`^(\d{14})_(.+)\.go$`)

// Next returns the version of a new migration, given the versions issued
// so far (in any order): now in UTC, to the second, or one second past the
// newest of them when that is not earlier, so that migrations made within
// one second, or after one dated ahead of the clock, still each get a
// version of their own, in the order they were made.
func Next(issued []string, now time.Time) (string, error) {
	next := now.UTC().Truncate(time.Second)
	for _, v := range issued {
		t, err := Parse(v)
		if err != nil {
			return "", err
		}
		if !t.Before(next) {
			next = t.Add(time.Second)
		}
	}
	return next.Format(Layout), nil
}

// Parse returns the time of version v, or an error saying it is none.
func Parse(v string) (time.Time, error) {
	t, err := time.Parse(Layout, v)
	if err != nil || len(v) != len(Layout) {
		return time.Time{}, fmt.Errorf("version %q is not a timestamp of the layout %s (year, month, day, hour, minute, second)", v, Layout)
	}
	return t, nil
}

// Migration is one migration file of a directory.
type Migration struct {
	// Version is the prefix of its file name, Name the rest without ".go":
	// the name Bun gives the migration (its comment).
	Version, Name string
}

// File is the name of the migration's file.
func (m Migration) File() string { return m.Version + "_" + m.Name + ".go" }

// Files returns the migrations of dir, ordered by version. A missing dir
// holds none.
func Files(dir string) ([]Migration, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list the migrations: %w", err)
	}
	var ms []Migration
	for _, e := range entries {
		m := migrationFile.FindStringSubmatch(e.Name())
		if m == nil || e.IsDir() || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		if _, err := Parse(m[1]); err != nil {
			return nil, fmt.Errorf("migration %s: %w", filepath.ToSlash(filepath.Join(dir, e.Name())), err)
		}
		ms = append(ms, Migration{Version: m[1], Name: m[2]})
	}
	slices.SortFunc(ms, func(a, b Migration) int { return strings.Compare(a.Version, b.Version) })
	return ms, nil
}

// NextIn returns the version of a new migration in dir (see Next): past
// every migration file there and every version its ledger records.
func NextIn(dir string, now time.Time) (string, error) {
	files, err := Files(dir)
	if err != nil {
		return "", err
	}
	ledger, err := ReadLedger(dir)
	if err != nil {
		return "", err
	}
	var issued []string
	for _, m := range slices.Concat(files, ledger) {
		issued = append(issued, m.Version)
	}
	return Next(issued, now)
}
