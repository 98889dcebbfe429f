package platform

import (
	"testing"

	"github.com/asapjs/fiber-template/internal/testkit"
)

// TestPlatformModule runs go test ./... in platform/, a module of its own.
// The child keeps its own per-package cache, so a rerun after a change
// tests only the platform packages the change reaches.
func TestPlatformModule(t *testing.T) {
	t.Parallel()
	args := []string{"./..."}
	if testing.Short() {
		args = append(args, "-short")
	}
	testkit.ModuleTests(t, "platform", nil, args...)
}
