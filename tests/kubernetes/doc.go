// Package kubernetes checks the manifests in deploy/kubernetes: it renders
// every overlay with the kustomize pinned in go.tool.mod, decodes each
// object strictly into its k8s.io/api type (an unknown field fails) and
// checks the policies every deployment of the service relies on. It is its
// own module, so that k8s.io/* stays out of the service's go.mod; the main
// module's tests/workflow runs it, so go test ./... covers it. No cluster
// is needed.
package kubernetes
