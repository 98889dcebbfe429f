// Command api runs the service: configuration from the environment, then the
// database and its migrations, then the router, then the listener, with
// graceful shutdown.
//
//	api                  serve the API (default); with MIGRATE_ON_START=true,
//	                     the default, pending migrations are applied first
//	api serve            the same
//	api migrate up       apply the pending migrations
//	api migrate down     roll back the last migration applied (--group: the
//	                     last group, all that one migrate up applied)
//	api migrate redo     roll back the last migration and apply it again
//	api migrate status   list the migrations and whether they are applied
//	api migrate unlock   clear a stale lock row a crashed run left (SQLite;
//	                     PostgreSQL's advisory lock ends with its connection)
//	api migrate new NAME write the skeleton of a new migration into
//	                     migrations/ (NAME in snake_case)
//	api healthcheck      exit 0 when the local server answers /health-check
//	                     with 200 (the container image's HEALTHCHECK)
//	api spec [-o file]   write the OpenAPI document without serving (-dir api: the contract)
//	api version          print the version the binary was built with
//	api keys generate|list|rotate|retire KID [-file F]
//	                     make an Ed25519 signing key, or list, rotate and
//	                     retire the keys of a key file
//	api users create --email E --name N --role R
//	                     create an active user; the password is the first
//	                     line of standard input (pending migrations are
//	                     applied first unless MIGRATE_ON_START=false)
//	api help             print the commands and the configuration variables
//	                     (also -h and --help)
//
// The migrate subcommands use DATABASE_URL like the service and write their
// report to standard error.
//
// Variables missing from the environment are read from a .env file in the
// working directory when there is one; the environment always wins.
package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	lookupEnv, err := withDotenv(dotenvFile, os.LookupEnv)
	if err != nil {
		fmt.Fprintln(os.Stderr, "api:", err)
		os.Exit(1)
	}
	if err := run(ctx, os.Args[1:], lookupEnv, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "api:", err)
		os.Exit(1)
	}
}

// stdio are the standard streams a command reads and writes.
type stdio struct {
	in       io.Reader
	out, err io.Writer
}

// run dispatches a subcommand with the process's standard input and
// output; it returns when the command is done or ctx is cancelled.
func run(ctx context.Context, args []string, lookupEnv func(string) (string, bool), stderr io.Writer) error {
	return dispatch(ctx, args, lookupEnv, stdio{in: os.Stdin, out: os.Stdout, err: stderr})
}

// dispatch runs the subcommand args name, serve when there is none.
func dispatch(ctx context.Context, args []string, lookupEnv func(string) (string, bool), std stdio) error {
	cmd := "serve"
	if len(args) > 0 {
		cmd, args = args[0], args[1:]
	}
	// These need no configuration: they answer even where the service
	// would refuse to start.
	switch {
	case isHelp(cmd):
		return printHelp(std.out)
	case cmd == "version":
		return printVersion(std.out)
	case cmd == "keys":
		return keysCommand(args, func(k string) string { v, _ := lookupEnv(k); return v }, std.out)
	case cmd == "migrate" && len(args) > 0 && args[0] == "new":
		return migrateNew(args[1:], migrationsDir, time.Now(), std.out)
	}
	cfg, err := loadConfig(lookupEnv)
	if err != nil {
		return err
	}
	logger := newLogger(cfg, std.err)
	run, ok := commands(ctx, cfg, logger, std)[cmd]
	if !ok {
		return fmt.Errorf("unknown command %q (api --help lists the commands)", cmd)
	}
	return run(args)
}

// commands are the subcommands that run with the configuration, by name,
// each taking the arguments after its name. help.go describes them.
func commands(ctx context.Context, cfg config, logger *slog.Logger, std stdio) map[string]func(args []string) error {
	return map[string]func([]string) error{
		"serve": func(args []string) error {
			if len(args) > 0 {
				return fmt.Errorf("serve takes no arguments, got %q (api --help lists the commands)", args)
			}
			return serve(ctx, cfg, logger)
		},
		"migrate":     func(args []string) error { return migrate(ctx, cfg, logger, args, std.err) },
		"healthcheck": func([]string) error { return healthcheck(ctx, cfg) },
		"users":       func(args []string) error { return users(ctx, cfg, logger, args, std.in, std.out) },
		"spec":        func(args []string) error { return spec(ctx, cfg, logger, args, std.out, std.err) },
	}
}
