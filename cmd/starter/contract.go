package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"time"
)

// specCommand writes the contract (api/), as task spec does. It is the one
// build of the service a command makes: go run keeps the binary in the
// build cache, so the go run ./cmd/api a user runs next starts at once.
var specCommand = []string{"go", "run", "./cmd/api", "spec", "-dir", "api"}

// goClientCommands write the Go client from the contract, as task clients
// does; each writes its own file.
var goClientCommands = [][]string{
	{"go", "tool", "-modfile=go.tool.mod", "oapi-codegen", "-config", "clients/go/oapi-codegen.yaml", "-o", "clients/go/apiclient/client.gen.go", "api/openapi.json"},
	{"go", "-C", "clients/go", "run", "./internal/pagesgen", "../../api/openapi.json", "apiclient/pages.gen.go"},
}

// npmCI installs the TypeScript client's tools as its lockfile says.
var npmCI = []string{"npm", "--prefix", "clients/ts", "ci", "--no-audit", "--no-fund"}

// tsGenerate writes the TypeScript client, as task clients does.
var tsGenerate = []string{"npm", "--prefix", "clients/ts", "run", "generate"}

// tsGenerateScript is the generate script of clients/ts/package.json as the
// template has it; refreshContract runs it with node itself, sparing npm's
// start.
const tsGenerateScript = "node scripts/generate.mjs"

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

// contractRefresh returns refreshContract with verbose set: the refresh
// of the commands that take -v.
func contractRefresh(verbose bool) func(dir string, out io.Writer) error {
	return func(dir string, out io.Writer) error { return refreshContract(dir, out, verbose) }
}

// refreshContract writes again, after a command changed the service, what
// is generated from its routes: the contract and the clients, so that the
// tests that keep them current pass. A tree without a contract (api/) is
// left alone; a failure says what failed, for its caller to say what to do
// about it. The TypeScript client needs npm; without it, refreshContract
// says so and leaves it for task clients.
//
// The steps that do not need each other run at the same time: npm ci
// (skipped when clients/ts/node_modules is already what the lockfile
// says) while the service builds, then the two files of the Go client and
// the TypeScript client from the contract. refreshContract returns once every step has ended,
// so that nothing writes after it. verbose prints how long each took.
func refreshContract(dir string, out io.Writer, verbose bool) error {
	if _, err := os.Stat(filepath.Join(dir, "api", "openapi.json")); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	s := &steps{dir: dir, out: out, verbose: verbose}
	start := time.Now()
	var ts chan error
	if _, err := os.Stat(filepath.Join(dir, "clients", "ts", "package.json")); err == nil {
		if _, err := exec.LookPath("npm"); err == nil {
			ts = make(chan error, 1)
			go func() {
				if nodeModulesCurrent(filepath.Join(dir, "clients", "ts")) {
					s.say("npm ci skipped: clients/ts/node_modules is as package-lock.json says")
				} else if err := s.run(npmCI); err != nil {
					ts <- err
					return
				}
				ts <- nil
			}()
		} else {
			defer fmt.Fprintln(out, "clients/ts not written: npm is not in PATH; run task clients where Node.js 20 and npm are installed")
		}
	}
	if err := s.run(specCommand); err != nil {
		if ts != nil {
			<-ts
		}
		return err
	}
	errs := make([]error, len(goClientCommands)+1)
	var wg sync.WaitGroup
	for i, args := range goClientCommands {
		wg.Go(func() { errs[i] = s.run(args) })
	}
	if ts != nil {
		if errs[len(goClientCommands)] = <-ts; errs[len(goClientCommands)] == nil {
			errs[len(goClientCommands)] = s.run(tsGenerateCommand(dir))
		}
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	if verbose {
		s.say(fmt.Sprintf("%5.1fs in all", time.Since(start).Seconds()))
	}
	fmt.Fprintln(out, "wrote the contract api/openapi.json, api/openapi-3.1.json and the clients from it")
	return nil
}

// steps runs the commands of refreshContract in dir, from more than one
// goroutine, and says what they did on out.
type steps struct {
	dir     string
	verbose bool
	mu      sync.Mutex
	out     io.Writer
}

// run runs args in the root. With verbose it says how long it took.
func (s *steps) run(args []string) error {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = s.dir
	start := time.Now()
	b, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("write the contract and the clients: %s: %w\n%s", strings.Join(args, " "), err, bytes.TrimSpace(b))
	}
	if s.verbose {
		s.say(fmt.Sprintf("%5.1fs %s", time.Since(start).Seconds(), strings.Join(args, " ")))
	}
	return nil
}

// say writes line on out, one goroutine at a time.
func (s *steps) say(line string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fmt.Fprintln(s.out, line)
}

// tsGenerateCommand is the command that writes the TypeScript client of
// the repository at root: npm run generate, or the script itself when it is
// the template's and node is in PATH.
func tsGenerateCommand(root string) []string {
	b, err := os.ReadFile(filepath.Join(root, "clients", "ts", "package.json"))
	if err != nil {
		return tsGenerate
	}
	var p struct {
		Scripts map[string]string `json:"scripts"`
	}
	if json.Unmarshal(b, &p) != nil || p.Scripts["generate"] != tsGenerateScript {
		return tsGenerate
	}
	if _, err := exec.LookPath("node"); err != nil {
		return tsGenerate
	}
	return []string{"node", "clients/ts/scripts/generate.mjs"}
}

// lockfile is what nodeModulesCurrent compares of package-lock.json and
// the copy npm keeps of what it installed (node_modules/.package-lock.json).
type lockfile struct {
	LockfileVersion int            `json:"lockfileVersion"`
	Packages        map[string]any `json:"packages"`
}

// nodeModulesCurrent reports whether dir/node_modules holds what
// dir/package-lock.json says, so that npm ci would change nothing: npm's
// record of what it installed there lists the same packages, each with the
// same version and integrity, and each one's folder is there.
func nodeModulesCurrent(dir string) bool {
	var want, have lockfile
	for _, f := range []struct {
		path string
		into *lockfile
	}{
		{filepath.Join(dir, "package-lock.json"), &want},
		{filepath.Join(dir, "node_modules", ".package-lock.json"), &have},
	} {
		b, err := os.ReadFile(f.path)
		if err != nil || json.Unmarshal(b, f.into) != nil {
			return false
		}
	}
	// The lockfile's "" is the project itself, which npm does not install.
	delete(want.Packages, "")
	if want.LockfileVersion != have.LockfileVersion || len(want.Packages) == 0 || !reflect.DeepEqual(want.Packages, have.Packages) {
		return false
	}
	for p := range want.Packages {
		if fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p))); err != nil || !fi.IsDir() {
			return false
		}
	}
	return true
}
