package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

const usage = `usage:
  starter [-C dir] rename MODULE
      rewrite the module path (e.g. github.com/acme/orders) everywhere it is named
  starter [-C dir] resource NAME FIELD:TYPE...
      generate a resource (e.g. orders customer:string 'status:enum(pending,paid)' note:string?)
      types: string text int int64 float64 bool time uuid enum(a,b,...); a trailing ? makes a field optional
`

// errUsage is a command line that names no known command or lacks its
// arguments.
var errUsage = errors.New("bad command line")

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		if errors.Is(err, errUsage) {
			fmt.Fprint(os.Stderr, usage)
		}
		fmt.Fprintln(os.Stderr, "starter:", err)
		os.Exit(1)
	}
}

// run dispatches one command line, printing what it did to out.
func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("starter", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dir := fs.String("C", ".", "the repository to work on")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	args = fs.Args()
	if len(args) == 0 {
		return fmt.Errorf("%w: no command", errUsage)
	}
	switch args[0] {
	case "rename":
		if len(args) != 2 {
			return fmt.Errorf("%w: rename takes one module path", errUsage)
		}
		return rename(*dir, args[1], out)
	case "resource":
		if len(args) < 3 {
			return fmt.Errorf("%w: resource takes a name and at least one FIELD:TYPE", errUsage)
		}
		return resource(*dir, args[1], args[2:], out)
	}
	return fmt.Errorf("%w: unknown command %q", errUsage, args[0])
}
