// Package apigate is the platform's API gate: it compares the exported Go
// API of the platform module (platform/, minus its internal packages) with
// the one of its last release, by apidiff (pinned in go.tool.mod), and
// fails on an incompatible change that the platform's version does not
// allow. Before the first release (no "## [X.Y.Z]" heading in
// platform/CHANGELOG.md) it only reports; from v1 on, an incompatible
// change needs a new major version (the module path's /v2, /v3 …) and an
// entry in the changelog's Unreleased section. docs/releasing.md tells the
// rules and how to cut a release.
package apigate
