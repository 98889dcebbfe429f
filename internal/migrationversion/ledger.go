package migrationversion

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// LedgerFile is the name of the ledger in the migrations directory: every
// version ever issued there, with the name it was issued to, one a line.
// Lines are only ever added: deleting a migration leaves its line, so its
// version is never issued again.
const LedgerFile = "versions.txt"

// ledgerHeader opens a ledger; lines starting with # are comments.
const ledgerHeader = `# Every migration version ever issued in this directory, with the name it
# was issued to, one a line: "VERSION NAME", as the file VERSION_NAME.go.
# The commands that write a migration (go run ./cmd/api migrate new, the
# starter) append its line, and a new version is past every one here, so a
# version is never issued twice, even after its file is deleted: a
# database that applied it would take a new migration of that version for
# applied, and never run it. Never delete a line. A migration written by
# hand gets a line too; a test of the migrations package checks.
`

// ReadLedger returns the entries of dir's ledger, in its order. A missing
// ledger has none.
func ReadLedger(dir string) ([]Migration, error) {
	name := filepath.Join(dir, LedgerFile)
	data, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the migration ledger: %w", err)
	}
	return parseLedger(filepath.ToSlash(name), data)
}

// parseLedger reads the entries of a ledger, named name in errors.
func parseLedger(name string, data []byte) ([]Migration, error) {
	var ms []Migration
	seen := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) != 2 {
			return nil, fmt.Errorf("%s:%d: want VERSION NAME, such as 20250601000000 create_users, got %q", name, n, line)
		}
		if _, err := Parse(fields[0]); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		if first, ok := seen[fields[0]]; ok {
			return nil, fmt.Errorf("%s:%d: version %s was issued already, on line %d: two migrations of one version pass for one", name, n, fields[0], first)
		}
		seen[fields[0]] = n
		ms = append(ms, Migration{Version: fields[0], Name: fields[1]})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	return ms, nil
}

// WithEntry returns the path of dir's ledger and its content with m
// appended, for the caller to write together with m's file. A missing
// ledger is started with the migration files dir has, so that the ledger
// of a repository that had none still covers them.
func WithEntry(dir string, m Migration) (string, []byte, error) {
	path := filepath.Join(dir, LedgerFile)
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		files, err := Files(dir)
		if err != nil {
			return "", nil, err
		}
		data = []byte(ledgerHeader)
		for _, f := range files {
			data = appendEntry(data, f)
		}
	case err != nil:
		return "", nil, fmt.Errorf("read the migration ledger: %w", err)
	}
	ms, err := parseLedger(filepath.ToSlash(path), data)
	if err != nil {
		return "", nil, err
	}
	for _, e := range ms {
		if e.Version == m.Version {
			return "", nil, fmt.Errorf("version %s was issued already, to %s (%s): not issuing it to %s", m.Version, e.Name, filepath.ToSlash(path), m.Name)
		}
	}
	return path, appendEntry(data, m), nil
}

// appendEntry appends m's line to a ledger's content.
func appendEntry(data []byte, m Migration) []byte {
	if len(data) > 0 && data[len(data)-1] != '\n' {
		data = append(data, '\n')
	}
	return fmt.Appendf(data, "%s %s\n", m.Version, m.Name)
}

// Record appends m to dir's ledger, as WithEntry describes.
func Record(dir string, m Migration) error {
	path, data, err := WithEntry(dir, m)
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("write the migration ledger: %w", err)
	}
	return nil
}

// Check reports the migration files of dir the ledger does not record as
// issued to them: a file missing from it, or one whose version the ledger
// gave another name (a file copied or renamed under a version issued
// before, which a database that applied the first would never run).
func Check(dir string) error {
	files, err := Files(dir)
	if err != nil {
		return err
	}
	ledger, err := ReadLedger(dir)
	if err != nil {
		return err
	}
	issued := map[string]string{}
	for _, m := range ledger {
		issued[m.Version] = m.Name
	}
	ledgerName := filepath.ToSlash(filepath.Join(dir, LedgerFile))
	var errs []error
	for _, f := range files {
		name, ok := issued[f.Version]
		switch {
		case !ok:
			errs = append(errs, fmt.Errorf("%s is not in %s: add the line %q to it", f.File(), ledgerName, f.Version+" "+f.Name))
		case name != f.Name:
			errs = append(errs, fmt.Errorf("%s: version %s was issued to %s (%s), not to %s: a database that applied %s takes this migration for applied and never runs it; "+
				"give it a version of its own (go run ./cmd/api migrate new %s writes the next one), or name it %s_%s.go again if it is that migration renamed",
				f.File(), f.Version, name, ledgerName, f.Name, name, f.Name, f.Version, name))
		}
	}
	return errors.Join(errs...)
}
