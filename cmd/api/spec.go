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

	"github.com/asapjs/fiber-template/app"
	"github.com/asapjs/fiber-template/platform/database"
)

// specDatabase is where "api spec" builds the router. The document depends
// on the routes' Go types only, never on data, so a throwaway in-memory
// database lets the command run without any setup.
const specDatabase = "sqlite::memory:"

// spec writes the OpenAPI document the service serves at spec.json, without
// serving: to the file named by -o, or to stdout. The base path and docs
// settings come from the configuration, as they do for serve.
func spec(ctx context.Context, cfg config, logger *slog.Logger, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("spec", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "write the document to `file` instead of standard output")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: api spec [-o file]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return fmt.Errorf("spec: %w", err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("spec: unexpected argument %q (usage: api spec [-o file])", fs.Arg(0))
	}

	// Building the router warns about serving concerns (an open docs UI)
	// that mean nothing for a document written to a file.
	doc, err := buildSpec(ctx, cfg, slog.New(errorsOnly{logger.Handler()}))
	if err != nil {
		return fmt.Errorf("spec: %w", err)
	}
	// Indented, so that a committed spec.json shows changes line by line.
	var buf bytes.Buffer
	if err := json.Indent(&buf, doc, "", "  "); err != nil {
		return fmt.Errorf("spec: %w", err)
	}
	buf.WriteByte('\n')
	if *out == "" {
		_, err = stdout.Write(buf.Bytes())
		return err
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("spec: %w", err)
	}
	return nil
}

// buildSpec builds the router as serve does, on an in-memory database, and
// returns its generated document.
func buildSpec(ctx context.Context, cfg config, logger *slog.Logger) ([]byte, error) {
	db, err := database.Open(ctx, specDatabase)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	r, err := app.New(db, routerConfig(cfg, logger))
	if err != nil {
		return nil, err
	}
	return r.SpecJSON(), nil
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
