package testkit

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// InCI reports whether the CI environment variable asks for a strict run
// (set, and not empty, 0 or false): then a missing program fails a test
// instead of skipping it, so CI never passes by skipping.
func InCI() bool {
	v, ok := os.LookupEnv("CI")
	return ok && v != "" && v != "0" && !strings.EqualFold(v, "false")
}

// Missing ends t for want of something this machine lacks: it fails t when
// CI is set and skips it otherwise. what names the missing thing and how to
// get it. A skip is also announced on the terminal, if there is one, because
// go test shows nothing of a passing package's output without -v.
func Missing(t testing.TB, what string) {
	t.Helper()
	msg := t.Name() + " needs " + what
	if InCI() {
		t.Fatal(msg + " (CI is set, so this fails instead of skipping)")
	}
	switch t.(type) {
	case *testing.T, *testing.B, *testing.F:
		// Not for a stand-in of a test, such as one checking Missing itself.
		announce("skip: " + msg)
	}
	t.Skip(msg)
}

// Skip skips t by design, not for want of anything (a slow step that runs
// only when asked for, a test of the template in a service made from it):
// it never fails, CI or not, and, like Missing, announces the skip on the
// terminal when there is one, so that go test without -v still shows it.
func Skip(t testing.TB, reason string) {
	t.Helper()
	msg := t.Name() + ": " + reason
	switch t.(type) {
	case *testing.T, *testing.B, *testing.F:
		announce("skip: " + msg)
	}
	t.Skip(msg)
}

// LookPath returns the path of the first of names found in PATH, or ends t
// through Missing with install as the advice.
func LookPath(t testing.TB, install string, names ...string) string {
	t.Helper()
	for _, name := range names {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	Missing(t, fmt.Sprintf("%s in PATH: %s", names[0], install))
	return ""
}

// announce writes line to the controlling terminal when the process has
// one. It is best effort: without a terminal (CI, an editor) the line is
// still in the test's own output, shown with -v or -json.
func announce(line string) {
	tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0)
	if err != nil {
		return
	}
	defer tty.Close()
	fmt.Fprintln(tty, line)
}
