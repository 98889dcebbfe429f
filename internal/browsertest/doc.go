// Package browsertest drives a headless Chromium against a served docs UI, for
// tests that must see the page the way a user does: scripts run, the spec is
// fetched and the operations rendered.
//
//	ctx := browsertest.Browser(t)
//	if err := browsertest.WaitForOperations(ctx, srvURL+"/api/docs/spec-ui.html", []string{"List pets"}); err != nil {
//		t.Fatal(err)
//	}
//
// The browser is Debian's chromium package at /usr/bin/chromium, or the one
// CHROMIUM_PATH names. Without it Browser skips the test, except under CI
// (the CI variable is set), where a missing browser fails it.
package browsertest
