package library

import (
	"os"
	"testing"

	"github.com/asapjs/fiber-template/internal/testkit"
)

// libraryModeEnv turns on this package's tests. Each makes a service in
// library mode with a module cache of its own (so that no made-up platform
// version reaches the machine's) and builds and tests it: minutes each,
// more on a cold build cache, which would spend go test ./...'s ten
// minutes a package. .ci/run runs them in a step of their own with a
// longer -timeout, as it does FRESH_CLONE and FOLLOW_README.
const libraryModeEnv = "LIBRARY_MODE"

// needsLibraryMode skips t, saying why: with -short, unless
// libraryModeEnv is set (and how to set it), and outside the template
// (onlyInTheTemplate).
func needsLibraryMode(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and tests generated services; skipped with -short")
	}
	if os.Getenv(libraryModeEnv) == "" {
		testkit.Skip(t, "makes and tests services in library mode, minutes each: set "+libraryModeEnv+"=1 (.ci/run does, with -timeout 30m)")
	}
	onlyInTheTemplate(t)
}
