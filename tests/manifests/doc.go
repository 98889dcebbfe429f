// Package manifests runs the checks of the Kubernetes manifests, which live
// in the module tests/kubernetes so that k8s.io/* stays out of go.mod. It is
// a package of its own so that the first, cold run of those checks (the
// k8s.io modules are large) has go test's time budget to itself.
package manifests
