package apigate

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/asapjs/fiber-template/internal/testkit"
)

// changes are apidiff's findings between two versions of the module, one
// line each, as apidiff words them ("./router.Sort: removed").
type changes struct {
	incompatible, compatible []string
}

// apiChanges compares the exported API of the module in oldDir with the one
// in newDir, by apidiff (pinned in go.tool.mod) in module mode: the export
// data of every package of each is written first, both at once, then
// compared. Internal packages are not API: apidiff leaves them out, and so
// does this, should a line name one.
func apiChanges(t testing.TB, oldDir, newDir string) changes {
	t.Helper()
	apidiff := testkit.Tool(t, "apidiff")
	tmp := t.TempDir()
	files := []string{filepath.Join(tmp, "old.x"), filepath.Join(tmp, "new.x")}
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i, dir := range []string{oldDir, newDir} {
		wg.Go(func() { errs[i] = writeExportData(t, apidiff, dir, files[i]) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	report, err := run(t, apidiff, tmp, "-m", files[0], files[1])
	if err != nil {
		t.Fatal(err)
	}
	return parseReport(report)
}

// writeExportData writes the export data of every package of the module in
// dir to file (apidiff -m -w). -trimpath keeps the directory out of go's
// build cache keys, so a base extracted afresh into a new temporary
// directory reuses the packages compiled for the same sources before.
func writeExportData(t testing.TB, apidiff, dir, file string) error {
	module, err := modulePath(dir)
	if err != nil {
		return err
	}
	_, err = run(t, apidiff, dir, "-m", "-w", file, module)
	return err
}

// run runs apidiff with args in dir and returns its standard output; the
// error carries its standard error.
func run(t testing.TB, apidiff, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(testkit.Context(t), apidiff, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -trimpath"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("apidiff %s (in %s): %w\n%s", strings.Join(args, " "), dir, err, stderr.Bytes())
	}
	return out, nil
}

// parseReport reads apidiff's text report: an "Incompatible changes:" and a
// "Compatible changes:" header, each followed by lines "- message".
func parseReport(report []byte) changes {
	var c changes
	var into *[]string
	sc := bufio.NewScanner(bytes.NewReader(report))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "Incompatible changes:":
			into = &c.incompatible
		case line == "Compatible changes:":
			into = &c.compatible
		case into != nil && strings.HasPrefix(line, "- ") && !internal(line[2:]):
			*into = append(*into, line[2:])
		}
	}
	return c
}

// internal reports whether a change's subject, the part of its message
// before the first ": ", is in an internal package.
func internal(message string) bool {
	subject, _, _ := strings.Cut(message, ": ")
	subject = strings.TrimPrefix(subject, "package ")
	for elem := range strings.SplitSeq(subject, "/") {
		if name, _, _ := strings.Cut(elem, "."); name == "internal" {
			return true
		}
	}
	return false
}

// modulePath reads the module path from dir's go.mod.
func modulePath(dir string) (string, error) {
	gomod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return "", err
	}
	for line := range strings.Lines(string(gomod)) {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`), nil
		}
	}
	return "", fmt.Errorf("%s has no module line", filepath.Join(dir, "go.mod"))
}

// pathMajor is the major version a module path allows: N for a /vN suffix
// (N ≥ 2), else 1 (v0 and v1 share the path without suffix).
func pathMajor(module string) int {
	i := strings.LastIndex(module, "/v")
	if i < 0 {
		return 1
	}
	n := 0
	for _, r := range module[i+2:] {
		if r < '0' || r > '9' {
			return 1
		}
		n = n*10 + int(r-'0')
	}
	if n < 2 {
		return 1
	}
	return n
}
