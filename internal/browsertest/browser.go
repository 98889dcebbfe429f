package browsertest

import (
	"context"
	"os"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/asapjs/fiber-template/internal/testkit"
)

// chromiumNames are the commands a Chromium is found by in PATH when
// CHROMIUM_PATH is not set: Debian's chromium package installs the first.
var chromiumNames = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// Browser starts a fresh headless Chromium for t and returns a chromedp
// context of one tab in it; the browser is closed when t ends. The browser
// is CHROMIUM_PATH, or the first of chromiumNames in PATH. Without one, t
// skips with one visible line, or fails when CI is set, so that CI never
// passes by skipping (testkit.Missing).
//
// The browser has a throwaway profile, no background traffic, and resolves
// no host name but localhost: a page under test that reaches for the
// network fails visibly instead of loading from the internet.
func Browser(t testing.TB) context.Context {
	t.Helper()
	names := chromiumNames
	if p := os.Getenv("CHROMIUM_PATH"); p != "" {
		names = []string{p}
	}
	path := testkit.LookPath(t, "install the chromium Debian package (apt-get install chromium) or set CHROMIUM_PATH", names...)

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND , EXCLUDE localhost , EXCLUDE 127.0.0.1"),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 1024),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(allocCtx)
	// Registered after TempDir, so it runs first: the browser has exited
	// before its profile directory is removed.
	t.Cleanup(func() {
		// Closing the browser gracefully lets it finish writing its
		// profile; killing it leaves files being written under the
		// directory being removed.
		_ = chromedp.Cancel(ctx)
		cancelTab()
		cancelAlloc()
	})
	// The first Run launches the browser; doing it here reports a browser
	// that cannot start apart from the page under test.
	if err := chromedp.Run(ctx); err != nil {
		t.Fatalf("browsertest: start Chromium at %s: %v", path, err)
	}
	return ctx
}
