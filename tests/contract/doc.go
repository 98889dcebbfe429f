// Package contract checks the committed contract in api/: that no change
// breaks the clients of the contract on the default branch (or the last
// tag) unless the major version says so (oasdiff, pinned in go.tool.mod),
// and that both documents validate against their OpenAPI version's JSON
// Schema (santhosh-tekuri/jsonschema, in the test process).
package contract
