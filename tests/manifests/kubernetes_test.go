package manifests

import (
	"testing"

	"github.com/asapjs/fiber-template/internal/testkit"
)

// TestKubernetesManifests runs the manifest checks of tests/kubernetes, a
// module of its own (so that k8s.io/* stays out of go.mod), which go test
// ./... would not enter: kustomize build of every overlay, strict decoding
// into k8s.io/api types, the policies of every container.
func TestKubernetesManifests(t *testing.T) {
	t.Parallel()
	// The checks run in a child go test, which reads the manifests and the
	// tools too: opened here, a change to any makes go test run this test
	// again instead of replaying its result.
	testkit.Inputs(t, "deploy/kubernetes", "go.tool.mod", "go.tool.sum")
	testkit.ModuleTests(t, "tests/kubernetes", nil, "-count=1", "./...")
}
