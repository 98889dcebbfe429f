package main

import (
	"bytes"
	"errors"
	"fmt"
	"go/format"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// authIssuer is rename's --auth value that makes a resource server of a
// fleet (docs/fleet.md): a service without the accounts example, whose
// auth routes verify the tokens of the issuer at AUTH_ISSUER.
const authIssuer = "issuer"

// checkAuth refuses an --auth value other than none or issuer.
func checkAuth(auth string) error {
	if auth != "" && auth != authIssuer {
		return fmt.Errorf("--auth %q: the one kind is issuer (a service that trusts another's tokens)", auth)
	}
	return nil
}

// accountsPaths are the files and directories of the accounts example,
// relative to the root, that a service trusting an issuer goes without:
// its packages, controllers, DTOs, models and repositories, the
// migrations of its tables, its admin commands, and the tests and
// benchmarks of all these. The ledger migrations/versions.txt keeps their
// versions, which are never issued again.
var accountsPaths = []string{
	"app/accounts",
	"app/sessions",
	"app/admin.go",
	"app/fleet.go",
	"app/issuer.go",
	"app/ratelimit.go",
	"app/controllers/auth.go",
	"app/controllers/caller.go",
	"app/controllers/email.go",
	"app/controllers/email_test.go",
	"app/controllers/errors.go",
	"app/controllers/users.go",
	"app/dto/auth.go",
	"app/dto/user.go",
	"app/models/indexes.go",
	"app/models/session.go",
	"app/models/user.go",
	"app/repositories/loginfailures.go",
	"app/repositories/sessions.go",
	"app/repositories/users.go",
	"app/repositories/users_test.go",
	"migrations/20250601000000_create_users.go",
	"migrations/20250701000000_index_users_search.go",
	"migrations/20250801000000_create_sessions.go",
	"migrations/20250801000100_create_rate_limits.go",
	"migrations/20251201000000_rate_limit_hits.go",
	"migrations/20261125000000_users_version.go",
	"migrations/20261126000100_sessions_client.go",
	"migrations/20261127000000_users_sort_indexes.go",
	"migrations/20261128000000_login_failures_pending.go",
	"migrations/20261129000000_users_session_epoch.go",
	"cmd/api/accounts.go",
	"cmd/api/accounts_test.go",
	"cmd/api/users.go",
	"cmd/api/users_test.go",
}

// accountsTests are the integration suite's files, every one of which
// drives the accounts example or its helpers: all go but main_test.go,
// and a suite of resourceAPI (accountsFiles) takes their place.
const accountsTests = "tests/integration/*_test.go"

// keptTests are the files of accountsTests that stay.
var keptTests = map[string]bool{"tests/integration/main_test.go": true}

// accountsFiles are the files written in place of the accounts example's:
// by path, the template they are made from.
var accountsFiles = map[string]string{
	"app/app.go":          "issuer_app.go.tmpl",
	"app/models/roles.go": "issuer_roles.go.tmpl",
	"cmd/api/options.go":  "issuer_options.go.tmpl",
	"tests/integration/resource_server_test.go": "issuer_suite_test.go.tmpl",
}

// defaultAudience finds the audience app/app.go names, as rename set it.
var defaultAudience = regexp.MustCompile(`DefaultAudience\s*=\s*"([^"]*)"`)

// accountsEdit replaces old, which must stand once in file, with new.
type accountsEdit struct {
	file, old, new string
}

// accountsEdits are the lines of the files kept that name the accounts
// example.
var accountsEdits = []accountsEdit{
	{"cmd/api/serve.go", "\topts := accountOptions(ctx, cfg)\n", "\topts, err := serviceOptions(ctx, cfg)\n\tif err != nil {\n\t\treturn err\n\t}\n"},
	{"cmd/api/serve.go", "\t\topts.KeepAccounts = cfg.Fleet.KeepAccounts\n", ""},
	{"cmd/api/spec.go", "\t// The service's own options, as serve gives them: what they add to\n\t// the routes (the auth rate limit's errors) is in the document.\n" +
		"\tr, err := app.NewWithOptions(db, routerConfig(cfg, logger), accountOptions(ctx, cfg))\n", "\tr, err := app.New(db, routerConfig(cfg, logger))\n"},
	{"cmd/api/main.go", "\t\t\"users\":       func(args []string) error { return users(ctx, cfg, logger, args, std.in, std.out) },\n", ""},
	{"cmd/api/main.go", "//\tapi users create --email E --name N --role R\n", ""},
	{"tests/workflow/deps_test.go", "\t\t{\"the example's accounts and sessions know no HTTP: the controllers speak it\",\n" +
		"\t\t\t[]string{\"./app/accounts\", \"./app/sessions\"},\n" +
		"\t\t\t[]string{\"github.com/gofiber/\", platform + \"/router\", module + \"app/controllers\"}},\n", ""},
	{".env.example", "# docs/fleet.md. Empty: the service issues its own tokens.\nAUTH_ISSUER=\n",
		"# docs/fleet.md. Required: this service has no accounts of its own (set\n# your issuer's URL).\nAUTH_ISSUER=https://accounts.example.com\n"},
	{".env.example", "# Accepted aud values, comma-separated.\n",
		"# Accepted aud values, comma-separated: the aud the issuer's tokens name\n# (an issuer of the template names its own audience, such as accounts-api).\n"},
	{"cmd/api/help.go", "\t\t" + `{"users create --email E --name N --role R", "create an active user (admin, member or guest); the password is the first line of standard input; pending migrations are applied first unless MIGRATE_ON_START=false"},` + "\n", ""},
	{"cmd/api/migrate_test.go", `TableExpr("users")`, `TableExpr("idempotency_keys")`},
	{"cmd/api/migrate_test.go", "the users table is not there", "the idempotency_keys table is not there"},
	{"migrations/migrations_test.go", `[]string{"users", "users_role_idx", "users_active_idx"}`, `[]string{"idempotency_keys"}`},
	{"migrations/migrations_test.go", "if tableExists(t, db, \"users\") {\n\t\tt.Error(\"after Rollback the users table", "if tableExists(t, db, \"idempotency_keys\") {\n\t\tt.Error(\"after Rollback the idempotency_keys table"},
	{"migrations/migrations_test.go", "if !tableExists(t, db, \"users\") {\n\t\tt.Error(\"Up after Rollback did not create the users table", "if !tableExists(t, db, \"idempotency_keys\") {\n\t\tt.Error(\"Up after Rollback did not create the idempotency_keys table"},
}

// withoutAccounts makes the repository at root, already renamed, a
// resource server without the accounts example: it plans every removal,
// file and edit first, and changes nothing when one of them does not
// apply (a repository changed by hand since the template).
func withoutAccounts(root string, out io.Writer) error {
	mod, err := modulePath(root)
	if err != nil {
		return fmt.Errorf("--auth=issuer: %w", err)
	}
	writes, removals, err := accountsPlan(root, mod)
	if err != nil {
		return fmt.Errorf("--auth=issuer: %w (nothing removed)", err)
	}
	for _, p := range removals {
		if err := os.RemoveAll(filepath.Join(root, filepath.FromSlash(p))); err != nil {
			return fmt.Errorf("--auth=issuer: %w", err)
		}
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for name := range writes {
			if !yield(name) {
				return
			}
		}
	})
	for _, name := range names {
		if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(name)), writes[name], 0o644); err != nil {
			return fmt.Errorf("--auth=issuer: %w", err)
		}
	}
	fmt.Fprintf(out, "removed the accounts example (%d files and directories) and rewrote %d files: the service trusts the issuer at AUTH_ISSUER; check with: go build ./... && go test ./...\n",
		len(removals), len(writes))
	return nil
}

// accountsPlan returns the content of every file withoutAccounts writes,
// by path, and the paths it removes; it fails when a path to remove or a
// line to edit is missing.
func accountsPlan(root, mod string) (writes map[string][]byte, removals []string, err error) {
	for _, p := range accountsPaths {
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(p))); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, nil, fmt.Errorf("%s is gone already", p)
			}
			return nil, nil, err
		}
	}
	tests, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(accountsTests)))
	if err != nil {
		return nil, nil, err
	}
	removals = slices.Clone(accountsPaths)
	for _, name := range tests {
		rel, err := filepath.Rel(root, name)
		if err != nil {
			return nil, nil, err
		}
		if rel = filepath.ToSlash(rel); !keptTests[rel] {
			removals = append(removals, rel)
		}
	}
	app, err := os.ReadFile(filepath.Join(root, "app", "app.go"))
	if err != nil {
		return nil, nil, err
	}
	aud := defaultAudience.FindSubmatch(app)
	if aud == nil {
		return nil, nil, errors.New("app/app.go: found no DefaultAudience")
	}
	platform, err := platformImport(root, mod)
	if err != nil {
		return nil, nil, err
	}
	data := struct{ Module, Platform, Audience string }{mod, platform, string(aud[1])}
	writes = map[string][]byte{}
	for name, tmpl := range accountsFiles {
		var buf bytes.Buffer
		if err := templates.ExecuteTemplate(&buf, tmpl, data); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", name, err)
		}
		src, err := format.Source(buf.Bytes())
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", name, err)
		}
		writes[name] = src
	}
	for _, e := range accountsEdits {
		src, ok := writes[e.file]
		if !ok {
			data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(e.file)))
			if err != nil {
				return nil, nil, err
			}
			src = data
		}
		if n := strings.Count(string(src), e.old); n != 1 {
			return nil, nil, fmt.Errorf("%s: found %q %d times, want once: edit it by hand", e.file, strings.TrimSpace(e.old), n)
		}
		writes[e.file] = []byte(strings.Replace(string(src), e.old, e.new, 1))
	}
	return writes, removals, nil
}
