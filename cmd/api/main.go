// Command api runs the service: configuration from the environment, then the
// database and its migrations, then the router, then the listener, with
// graceful shutdown.
//
//	api                  serve the API (default); with MIGRATE_ON_START=true,
//	                     the default, pending migrations are applied first
//	api serve            the same
//	api migrate up       apply the pending migrations
//	api migrate down     roll back the last group of migrations
//	api migrate status   list the migrations and whether they are applied
//	api migrate unlock   clear a stale lock row a crashed run left (SQLite;
//	                     PostgreSQL's advisory lock ends with its connection)
//	api healthcheck      exit 0 when the local server answers /health-check
//	                     with 200 (the container image's HEALTHCHECK)
//	api spec [-o file]   write the OpenAPI document without serving
//	api version          print the version the binary was built with
//	api users create --email E --name N --role R
//	                     create an active user; the password is the first
//	                     line of standard input
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
	"os"
	"os/signal"
	"syscall"
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

// run dispatches a subcommand; it returns when the command is done or ctx
// is cancelled.
func run(ctx context.Context, args []string, lookupEnv func(string) (string, bool), stderr io.Writer) error {
	// The version needs no configuration: it answers even where the
	// service would refuse to start.
	if len(args) > 0 && args[0] == "version" {
		return printVersion(os.Stdout)
	}
	cfg, err := loadConfig(lookupEnv)
	if err != nil {
		return err
	}
	logger := newLogger(cfg, stderr)
	cmd := "serve"
	if len(args) > 0 {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return serve(ctx, cfg, logger)
	case "migrate":
		return migrate(ctx, cfg, logger, args, stderr)
	case "healthcheck":
		return healthcheck(ctx, cfg)
	case "users":
		return users(ctx, cfg, args, os.Stdin, os.Stdout)
	case "spec":
		return spec(ctx, cfg, logger, args, os.Stdout, stderr)
	default:
		return fmt.Errorf("unknown command %q (want serve, migrate, healthcheck, spec, users or version)", cmd)
	}
}
