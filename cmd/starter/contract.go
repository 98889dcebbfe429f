package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// contractCommands write the contract (api/) and the Go client from it, as
// task spec and task clients do, run from the repository root.
var contractCommands = [][]string{
	{"go", "run", "./cmd/api", "spec", "-dir", "api"},
	{"go", "tool", "-modfile=go.tool.mod", "oapi-codegen", "-config", "clients/go/oapi-codegen.yaml", "-o", "clients/go/apiclient/client.gen.go", "api/openapi.json"},
	{"go", "-C", "clients/go", "run", "./internal/pagesgen", "../../api/openapi.json", "apiclient/pages.gen.go"},
}

// tsClientCommands write the TypeScript client, as task clients does.
var tsClientCommands = [][]string{
	{"npm", "--prefix", "clients/ts", "ci", "--no-audit", "--no-fund"},
	{"npm", "--prefix", "clients/ts", "run", "generate"},
}

// contractOutputs are the files refreshContract writes, by slash path
// from the root.
var contractOutputs = []string{
	"api/openapi.json", "api/openapi-3.1.json",
	"clients/go/apiclient/client.gen.go", "clients/go/apiclient/pages.gen.go",
	"clients/ts/src/schema.d.ts", "clients/ts/src/pagination.gen.js", "clients/ts/src/pagination.gen.d.ts",
}

// refreshLater is what to do when refreshContract fails after a command
// that keeps its changes (rename, resource).
const refreshLater = "(fix it, then run task spec clients)"

// refreshContract writes again, after a command changed the service, what
// is generated from its routes: the contract and the clients, so that the
// tests that keep them current pass. A tree without a contract (api/) is
// left alone; a failure says what failed, for its caller to say what to do
// about it. The TypeScript client needs npm; without it, refreshContract
// says so and leaves it for task clients.
func refreshContract(dir string, out io.Writer) error {
	if _, err := os.Stat(filepath.Join(dir, "api", "openapi.json")); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	commands := contractCommands
	if _, err := os.Stat(filepath.Join(dir, "clients", "ts", "package.json")); err == nil {
		if _, err := exec.LookPath("npm"); err == nil {
			commands = slices.Concat(commands, tsClientCommands)
		} else {
			defer fmt.Fprintln(out, "clients/ts not written: npm is not in PATH; run task clients where Node.js 20 and npm are installed")
		}
	}
	for _, args := range commands {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = dir
		if b, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("write the contract and the clients: %s: %w\n%s", strings.Join(args, " "), err, bytes.TrimSpace(b))
		}
	}
	fmt.Fprintln(out, "wrote the contract api/openapi.json, api/openapi-3.1.json and the clients from it")
	return nil
}
