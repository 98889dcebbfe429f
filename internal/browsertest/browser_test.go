package browsertest_test

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/asapjs/fiber-template/internal/browsertest"
)

// outcomeTB records whether a test was skipped or failed. Like the real
// one, it stops the calling goroutine on either.
type outcomeTB struct {
	testing.TB
	skipped, failed bool
	message         string
}

func (o *outcomeTB) Helper() {}

func (o *outcomeTB) Skip(args ...any) {
	o.skipped, o.message = true, fmt.Sprint(args...)
	runtime.Goexit()
}

func (o *outcomeTB) Fatal(args ...any) {
	o.failed, o.message = true, fmt.Sprint(args...)
	runtime.Goexit()
}

func TestMissingChromium(t *testing.T) {
	cases := []struct {
		name     string
		ci       string
		wantSkip bool
	}{
		{"a missing browser skips the test on a developer machine", "", true},
		{"a missing browser fails the test in CI", "true", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("CHROMIUM_PATH", filepath.Join(t.TempDir(), "no-chromium"))
			t.Setenv("CI", tc.ci)
			tb := &outcomeTB{TB: t}
			done := make(chan struct{})
			go func() {
				defer close(done)
				browsertest.Browser(tb)
			}()
			<-done
			if tb.skipped != tc.wantSkip || tb.failed == tc.wantSkip {
				t.Fatalf("skipped = %v, failed = %v; want skipped = %v", tb.skipped, tb.failed, tc.wantSkip)
			}
			if !strings.Contains(tb.message, "chromium Debian package") {
				t.Errorf("message %q does not say to install the chromium Debian package", tb.message)
			}
		})
	}
}
