package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

const usage = `usage:
  starter [-C dir] rename [--library [--platform-version vX.Y.Z]] MODULE [--title TITLE] [--issuer ISS] [--audience AUD] [--auth issuer] [-v]
      rewrite the module path (e.g. github.com/acme/orders) everywhere it is named, and name
      the project after its last element: the docs title (default "Orders API"), the token
      issuer (default orders) and audience (default orders-api), Compose and Kubernetes names;
      -v lists every file rewritten; --auth issuer makes a service without the accounts example
      (users, sessions, their tables, throttles and admin commands) that trusts the tokens of
      the issuer at AUTH_ISSUER (docs/fleet.md)
      the platform (router, binder, OpenAPI, paging, ...) comes one of two ways:
        vendored, the default: the service keeps a copy, MODULE/platform in platform/, which
          its go.mod replaces; you own it and may edit it, and the template's later fixes
          come by porting their diffs
        --library: platform/ and its tests (tests/platform, tests/apigate) are removed, and go.mod requires
          github.com/asapjs/fiber-template/platform at --platform-version (default the newest
          release in platform/CHANGELOG.md); upgrades come with
          go get github.com/asapjs/fiber-template/platform@vX.Y.Z, and you edit no platform code;
          rename then runs go mod tidy with your GOPROXY, GOFLAGS and GOSUMDB, and when that or
          anything after fails it changes nothing
  starter [-C dir] resource NAME [--singular SINGULAR] [-v] FIELD:TYPE...
      generate a resource (e.g. orders customer:string 'status:enum(pending,paid)' 'note:string?')
      types: string text int int64 float64 bool time uuid enum(a,b,...); a trailing ? makes a field optional
      NAME is a plural; --singular names its singular when the English rules get it wrong or
      it is the same word (news, series)
  starter [-C dir] field NAME [-v] FIELD:TYPE...
      add fields to a generated resource (e.g. orders 'tracking_code:string?'): its model,
      DTOs, list filters and test as resource would write them with the fields, a migration
      that adds the columns (a required one with a default: its type's zero value, an enum's
      first value), the contract and the clients
  starter [-C dir] field --remove NAME [-v] FIELD
      drop a field of a generated resource, with a migration that drops its column (its down
      adds it back, without the values it held)
  starter [-C dir] remove NAME [-v]
      delete a generated resource's files and its registration in app/app.go, as long as
      every file is as generated
  starter help
      print this help (also -h and --help, after any command)
each command but help then writes the contract and the clients again; its -v also says how
long each step of that took
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

// run dispatches one command line, printing what it did to out. Asked for
// help (help, -h or --help, after any command), it prints the usage to
// out and does nothing else.
func run(args []string, out io.Writer) error {
	err := dispatch(args, out)
	if errors.Is(err, flag.ErrHelp) {
		_, err = fmt.Fprint(out, usage)
	}
	return err
}

// dispatch runs one command line; see run.
func dispatch(args []string, out io.Writer) error {
	fs := newFlags("starter")
	dir := fs.String("C", ".", "the repository to work on")
	if err := fs.Parse(args); err != nil {
		return usageError(err)
	}
	args = fs.Args()
	if len(args) == 0 {
		return fmt.Errorf("%w: no command", errUsage)
	}
	cmd, args := args[0], args[1:]
	switch cmd {
	case "help":
		return flag.ErrHelp
	case "rename":
		fs := newFlags("rename")
		var opts renameOptions
		fs.StringVar(&opts.Title, "title", "", "the docs title")
		fs.StringVar(&opts.Issuer, "issuer", "", "the iss claim of the access tokens")
		fs.StringVar(&opts.Audience, "audience", "", "the aud claim of the access tokens")
		fs.BoolVar(&opts.Verbose, "v", false, "list every file rewritten")
		fs.BoolVar(&opts.Library, "library", false, "require the platform as a library instead of keeping a copy")
		fs.StringVar(&opts.PlatformVersion, "platform-version", "", "the platform's version --library requires")
		auth := fs.String("auth", "", "issuer: a service without the accounts example, trusting AUTH_ISSUER's tokens")
		pos, err := parseInterleaved(fs, args)
		if err == nil {
			err = checkAuth(*auth)
		}
		if err == nil && opts.PlatformVersion != "" && !opts.Library {
			err = errors.New("--platform-version goes with --library")
		}
		if err != nil {
			return usageError(fmt.Errorf("rename: %w", err))
		}
		if len(pos) != 1 {
			return fmt.Errorf("%w: rename takes one module path", errUsage)
		}
		opts.WithoutAccounts = *auth == authIssuer
		if err := rename(*dir, pos[0], opts, out); err != nil || opts.Library {
			// Library mode removes the accounts example and writes the
			// contract within its own all-or-nothing change.
			return err
		}
		if *auth == authIssuer {
			if err := withoutAccounts(*dir, out); err != nil {
				return err
			}
		}
		return refreshOrSay(*dir, opts.Verbose, out)
	case "resource":
		fs := newFlags("resource")
		var opts resourceOptions
		fs.StringVar(&opts.Singular, "singular", "", "the singular of NAME")
		verbose := fs.Bool("v", false, "say how long each step took")
		pos, err := parseInterleaved(fs, args)
		if err != nil {
			return usageError(fmt.Errorf("resource: %w", err))
		}
		if len(pos) < 2 {
			return fmt.Errorf("%w: resource takes a name and at least one FIELD:TYPE", errUsage)
		}
		if err := resource(*dir, pos[0], pos[1:], opts, out); err != nil {
			return err
		}
		return refreshOrSay(*dir, *verbose, out)
	case "remove":
		fs := newFlags("remove")
		var opts removeOptions
		fs.BoolVar(&opts.Verbose, "v", false, "say how long each step took")
		pos, err := parseInterleaved(fs, args)
		if err != nil {
			return usageError(fmt.Errorf("remove: %w", err))
		}
		if len(pos) != 1 {
			return fmt.Errorf("%w: remove takes one resource name", errUsage)
		}
		return remove(*dir, pos[0], opts, out)
	case "field":
		fs := newFlags("field")
		var opts fieldOptions
		fs.BoolVar(&opts.Remove, "remove", false, "drop the field named")
		fs.BoolVar(&opts.Verbose, "v", false, "say how long each step took")
		pos, err := parseInterleaved(fs, args)
		if err != nil {
			return usageError(fmt.Errorf("field: %w", err))
		}
		if len(pos) < 2 || opts.Remove && len(pos) != 2 {
			return fmt.Errorf("%w: field takes a resource name and at least one FIELD:TYPE, or with --remove one field name", errUsage)
		}
		return field(*dir, pos[0], pos[1:], opts, out)
	}
	return fmt.Errorf("%w: unknown command %q", errUsage, cmd)
}

// refreshOrSay runs refreshContract, and when it fails says to run it
// again once fixed: the command's changes stay.
func refreshOrSay(dir string, verbose bool, out io.Writer) error {
	if err := refreshContract(dir, out, verbose); err != nil {
		return fmt.Errorf("%w\n%s", err, refreshLater)
	}
	return nil
}

// usageError is the error of a command line that flag refused: a usage
// error, or flag.ErrHelp as it is when it asked for help.
func usageError(err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return flag.ErrHelp
	}
	return fmt.Errorf("%w: %w", errUsage, err)
}

// newFlags returns a flag set that reports its errors to its caller only.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parseInterleaved parses args with fs, flags before, between or after
// the positional arguments (flag.Parse alone stops at the first of
// those), and returns the positional ones in order. A lone "-" is
// positional; after "--" every argument is.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for len(args) > 0 {
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		if strings.HasPrefix(args[0], "-") && args[0] != "-" {
			// Parse consumes "--" too: split there first, so that it still
			// ends the flags.
			end := len(args)
			for i, a := range args {
				if a == "--" {
					end = i
					break
				}
			}
			if err := fs.Parse(args[:end]); err != nil {
				return nil, err
			}
			args = append(fs.Args(), args[end:]...)
			continue
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
	return pos, nil
}
