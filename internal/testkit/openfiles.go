package testkit

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// WithOpenFiles returns a command for Start that runs bin with its
// open-files limit (RLIMIT_NOFILE, soft and hard) lowered to n: a shell
// script in t's temporary directory that sets the limit and execs bin,
// so the process Start signals and kills is bin itself. It ends t through
// Missing on a system without /bin/sh and ulimit (Windows).
func WithOpenFiles(t testing.TB, bin string, n int) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		Missing(t, "a shell with ulimit -n, to lower the open-files limit")
	}
	script := filepath.Join(t.TempDir(), filepath.Base(bin)+"-nofile-"+strconv.Itoa(n))
	quoted := "'" + strings.ReplaceAll(bin, "'", `'\''`) + "'"
	body := fmt.Sprintf("#!/bin/sh\nulimit -n %d || exit 1\nexec %s \"$@\"\n", n, quoted)
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatalf("testkit: write %s: %v", script, err)
	}
	return script
}
