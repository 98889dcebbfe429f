package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/asapjs/fiber-template/app"
	"github.com/asapjs/fiber-template/platform/database"
)

// specDatabase is where "api spec" builds the router. The document depends
// on the routes' Go types only, never on data, so a throwaway in-memory
// database lets the command run without any setup.
const specDatabase = "sqlite::memory:"

// The contract: the documents "api spec -dir" writes, as committed in api/.
const (
	contract30 = "openapi.json"
	contract31 = "openapi-3.1.json"
)

// noEnv looks nothing up: the configuration it gives is the defaults.
func noEnv(string) (string, bool) { return "", false }

// spec writes the OpenAPI document the service serves at spec.json (or,
// with -openapi 3.1, at spec-3.1.json) without serving: to the file named
// by -o, or to stdout. The base path and docs settings come from the
// configuration, as they do for serve. With -dir it writes the contract
// instead: both documents under the default configuration, whatever the
// environment says, so that the committed files do not depend on who
// generated them.
func spec(ctx context.Context, cfg config, logger *slog.Logger, args []string, stdout, stderr io.Writer) error {
	const usage = "usage: api spec [-openapi 3.0|3.1] [-o file] | api spec -dir dir"
	fs := flag.NewFlagSet("spec", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "write the document to `file` instead of standard output")
	version := fs.String("openapi", "3.0", "the OpenAPI `version` to write: 3.0 or 3.1")
	dir := fs.String("dir", "", "write the contract, "+contract30+" and "+contract31+" under the default configuration, into `dir`")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), usage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return fmt.Errorf("spec: %w", err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("spec: unexpected argument %q (%s)", fs.Arg(0), usage)
	}
	if *version != "3.0" && *version != "3.1" {
		return fmt.Errorf("spec: -openapi %q: want 3.0 or 3.1", *version)
	}
	if *dir != "" && *out != "" {
		return fmt.Errorf("spec: -dir and -o exclude each other (%s)", usage)
	}
	if *dir != "" {
		var err error
		if cfg, err = loadConfig(noEnv); err != nil {
			return fmt.Errorf("spec: %w", err)
		}
	}

	// Building the router warns about serving concerns (an open docs UI)
	// that mean nothing for a document written to a file.
	docs, err := buildSpec(ctx, cfg, slog.New(errorsOnly{logger.Handler()}))
	if err != nil {
		return fmt.Errorf("spec: %w", err)
	}
	if *dir != "" {
		if err := os.MkdirAll(*dir, 0o755); err != nil {
			return fmt.Errorf("spec: %w", err)
		}
		for name, doc := range map[string][]byte{contract30: docs.v30, contract31: docs.v31} {
			if err := writeDocument(filepath.Join(*dir, name), doc); err != nil {
				return fmt.Errorf("spec: %w", err)
			}
		}
		return nil
	}
	doc := docs.v30
	if *version == "3.1" {
		doc = docs.v31
	}
	if *out == "" {
		b, err := indent(doc)
		if err != nil {
			return fmt.Errorf("spec: %w", err)
		}
		_, err = stdout.Write(b)
		return err
	}
	if err := writeDocument(*out, doc); err != nil {
		return fmt.Errorf("spec: %w", err)
	}
	return nil
}

// indent returns doc indented, with a final newline, so that a committed
// document shows changes line by line.
func indent(doc []byte) ([]byte, error) {
	var buf bytes.Buffer
	if err := json.Indent(&buf, doc, "", "  "); err != nil {
		return nil, err
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}

// writeDocument writes doc, indented, to the file name.
func writeDocument(name string, doc []byte) error {
	b, err := indent(doc)
	if err != nil {
		return err
	}
	return os.WriteFile(name, b, 0o644)
}

// documents are the two versions of the generated document.
type documents struct{ v30, v31 []byte }

// buildSpec builds the router as serve does, with the accounts settings of
// cfg, on an in-memory database, and returns its generated documents.
func buildSpec(ctx context.Context, cfg config, logger *slog.Logger) (documents, error) {
	db, err := database.Open(ctx, specDatabase)
	if err != nil {
		return documents{}, err
	}
	defer db.Close()
	// The service's own options, as serve gives them: what they add to
	// the routes (the auth rate limit's errors) is in the document.
	r, err := app.NewWithOptions(db, routerConfig(cfg, logger), accountOptions(ctx, cfg))
	if err != nil {
		return documents{}, err
	}
	return documents{v30: r.SpecJSON(), v31: r.SpecJSON31()}, nil
}

// errorsOnly passes on the records of its handler at level error and above.
type errorsOnly struct{ slog.Handler }

func (h errorsOnly) Enabled(ctx context.Context, level slog.Level) bool {
	return level >= slog.LevelError && h.Handler.Enabled(ctx, level)
}

func (h errorsOnly) WithAttrs(attrs []slog.Attr) slog.Handler {
	return errorsOnly{h.Handler.WithAttrs(attrs)}
}

func (h errorsOnly) WithGroup(name string) slog.Handler {
	return errorsOnly{h.Handler.WithGroup(name)}
}
