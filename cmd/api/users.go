package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/asapjs/fiber-template/app"
	"github.com/asapjs/fiber-template/platform/database"
)

// users runs `api users create --email E --name N --role R`: it creates an
// active user on DATABASE_URL, reading its password from the first line of
// stdin so that it never shows in the process list or the shell history.
// Like serve, it applies the pending migrations first unless
// MIGRATE_ON_START is false, so that the first admin of a new database
// needs no other command.
func users(ctx context.Context, cfg config, logger *slog.Logger, args []string, stdin io.Reader, stdout io.Writer) error {
	if len(args) == 0 || args[0] != "create" {
		return errors.New("usage: api users create --email E --name N --role admin|member|guest (password on stdin)")
	}
	fs := flag.NewFlagSet("users create", flag.ContinueOnError)
	email := fs.String("email", "", "email of the user (its login name)")
	name := fs.String("name", "", "display name")
	role := fs.String("role", "member", "admin, member or guest")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if *email == "" || *name == "" {
		return errors.New("users create needs --email and --name")
	}
	line, err := bufio.NewReader(stdin).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("read password from stdin: %w", err)
	}
	password := strings.TrimRight(line, "\r\n")
	db, err := database.OpenPool(ctx, cfg.DatabaseURL, cfg.Pool)
	if err != nil {
		return err
	}
	defer db.Close()
	if cfg.MigrateOnStart {
		if err := migrateOnStart(ctx, db, cfg, logger); err != nil {
			return err
		}
	}
	u, err := app.CreateUser(ctx, db, app.NewUser{Email: *email, Name: *name, Password: password, Role: *role}, 0)
	if err != nil {
		return fmt.Errorf("users create: %w", err)
	}
	fmt.Fprintf(stdout, "created user %d (%s, %s)\n", u.ID, u.Email, u.Role)
	return nil
}
