// Package contract checks the committed contract in api/: that no change
// breaks the clients of the contract on the default branch (or the last
// tag) unless the major version says so (oasdiff), and that both documents
// validate with a maintained OpenAPI 3.0 and 3.1 validator
// (libopenapi-validator). Both tools are pinned in go.tool.mod.
package contract
