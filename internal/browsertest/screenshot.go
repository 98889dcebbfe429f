package browsertest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// Screenshot saves a PNG of the visible part of the page in the tab of ctx to the
// directory named by the TEST_ARTIFACTS environment variable, as
// {test name}-{name}.png, and does nothing when the variable is unset. A
// screenshot that cannot be taken is logged, not failed: it is evidence,
// not a check.
func Screenshot(ctx context.Context, t testing.TB, name string) {
	t.Helper()
	dir := os.Getenv("TEST_ARTIFACTS")
	if dir == "" {
		return
	}
	shotCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	var png []byte
	// A headless tab in the background paints no frames to capture.
	if err := chromedp.Run(shotCtx, page.BringToFront(), chromedp.CaptureScreenshot(&png)); err != nil {
		t.Logf("browsertest: screenshot %s: %v", name, err)
		return
	}
	file := filepath.Join(dir, fileName(t.Name()+"-"+name)+".png")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Logf("browsertest: screenshot %s: %v", name, err)
		return
	}
	if err := os.WriteFile(file, png, 0o644); err != nil {
		t.Logf("browsertest: screenshot %s: %v", name, err)
		return
	}
	t.Logf("browsertest: screenshot saved to %s", file)
}

// fileName makes a test name safe to use as a file name.
func fileName(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, s)
}
