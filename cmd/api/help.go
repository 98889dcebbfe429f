package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// usage is one command of api --help: how it is called and what it does.
type usage struct {
	// Command is the command line after "api".
	Command string
	// Summary says what it does.
	Summary string
}

// usages are the commands api --help lists, in its order. The first word
// of each is "version", "help" or a name of commands (a test holds them
// together).
func usages() []usage {
	return []usage{
		{"serve", "serve the API (the default without a command); pending migrations are applied first unless MIGRATE_ON_START=false"},
		{"migrate up", "apply the pending migrations to DATABASE_URL"},
		{"migrate down [--group]", "roll back the last migration applied; --group: the last group (all one migrate up applied)"},
		{"migrate redo", "roll back the last migration applied and apply it again (to try the down of a new one)"},
		{"migrate status", "list the migrations and whether they are applied"},
		{"migrate unlock", "clear a stale migration lock row a crashed run left"},
		{"migrate new NAME", "write the skeleton of a new migration into " + migrationsDir + "/ (NAME in snake_case, such as add_orders_index)"},
		{"healthcheck", "exit 0 when the local server answers /health-check with 200 (the container's HEALTHCHECK)"},
		{"users create --email E --name N --role R", "create an active user (admin, member or guest); the password is the first line of standard input; pending migrations are applied first unless MIGRATE_ON_START=false"},
		{"spec [-openapi 3.1] [-o file] | -dir dir", "write the OpenAPI document (or the contract, both versions) without serving"},
		{"keys generate", "print a new Ed25519 signing key (PEM) for JWT_SIGNING_KEYS"},
		{"keys list [-file F]", "list the kids of a key file (default JWT_SIGNING_KEYS_FILE, else the development keys), the signing one first"},
		{"keys rotate [-file F]", "put a new key first in the file: it signs after the next start, the others keep verifying"},
		{"keys retire KID [-file F]", "remove a key that no longer signs: the tokens it signed stop verifying"},
		{"version", "print the version the binary was built with"},
		{"help", "print this help (also -h and --help)"},
	}
}

// isHelp reports whether the command arg asks for the help.
func isHelp(arg string) bool {
	switch arg {
	case "help", "-h", "-help", "--help":
		return true
	}
	return false
}

// helpIndent is where the descriptions of the help start.
const helpIndent = 25

// printHelp writes the commands and the configuration variables to w.
func printHelp(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "Usage: api [command]")
	fmt.Fprintln(bw)
	fmt.Fprintln(bw, "Without a command, api serves the API; docs/configuration.md tells more of each command and variable.")
	fmt.Fprintln(bw)
	fmt.Fprintln(bw, "Commands:")
	for _, u := range usages() {
		writeHelpItem(bw, u.Command, u.Summary)
	}
	fmt.Fprintln(bw)
	fmt.Fprintf(bw, "Configuration, from the environment (a %s file in the working directory fills what is not set):\n", dotenvFile)
	for _, s := range settings() {
		meaning := s.Meaning
		if s.Default != "" {
			meaning += " (default " + s.Default + ")"
		}
		writeHelpItem(bw, s.Name, meaning)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("print help: %w", err)
	}
	return nil
}

// writeHelpItem writes one name and its description, the description from
// column helpIndent, or on a line of its own below a longer name.
func writeHelpItem(w io.Writer, name, description string) {
	item := "  " + name
	if len(item) < helpIndent-1 {
		fmt.Fprintf(w, "%-*s%s\n", helpIndent, item, description)
		return
	}
	fmt.Fprintf(w, "%s\n%s%s\n", item, strings.Repeat(" ", helpIndent), description)
}
