package workflow

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/asapjs/fiber-template/internal/testkit"

	"github.com/asapjs/fiber-template/platform/servicetest"
	"github.com/asapjs/fiber-template/tests/integration/pgtest"
)

// TestARemovedResourceKeepsItsMigrationVersion does, in a copy of the
// repository, what reused a migration version before: generate gadgets,
// migrate, remove gadgets, generate widgets, migrate. On SQLite and on
// PostgreSQL the widgets migration has a version of its own, so migrate up
// applies it, and the service built with it creates a widget (201). Then
// the widgets file is renamed to gadgets' version, as a hand-made copy
// could: the service refuses to start on either database, saying which
// version was applied under which name and what to do.
//
// The copy has no contract (api/), so the starter writes none: what is
// tested is the migrations; TestStarterMakesAServiceOfItsOwn tests the
// contract and the clients.
func TestARemovedResourceKeepsItsMigrationVersion(t *testing.T) {
	onlyInTheTemplate(t)
	if testing.Short() {
		t.Skip("builds a copy of the service three times; skipped with -short")
	}
	t.Parallel()
	dir := copyWorkTree(t)
	if err := os.RemoveAll(filepath.Join(dir, "api")); err != nil {
		t.Fatal(err)
	}
	starter := func(args ...string) {
		t.Helper()
		testkit.Go(t, dir, nil, append([]string{"run", "./cmd/starter"}, args...)...)
	}
	build := func(name string) string {
		t.Helper()
		bin := filepath.Join(t.TempDir(), name)
		testkit.Go(t, dir, nil, "build", "-o", bin, "./cmd/api")
		return bin
	}

	starter("resource", "gadgets", "title:string")
	gadgets := migrationFile(t, dir, "create_gadgets")
	withGadgets := build("api-gadgets")
	starter("remove", "gadgets")
	starter("resource", "widgets", "title:string")
	widgets := migrationFile(t, dir, "create_widgets")
	if widgets.version <= gadgets.version {
		t.Fatalf("widgets got the migration version %s, not past %s, the version of the removed gadgets", widgets.version, gadgets.version)
	}
	withWidgets := build("api-widgets")
	// The widgets migration under the version gadgets had.
	if err := os.Rename(widgets.path, filepath.Join(dir, "migrations", gadgets.version+"_create_widgets.go")); err != nil {
		t.Fatal(err)
	}
	colliding := build("api-colliding")

	for _, backend := range []struct {
		name string
		dsn  func(t *testing.T) string
	}{
		{"SQLite", func(t *testing.T) string { return "sqlite:" + filepath.Join(t.TempDir(), "app.db") }},
		{"PostgreSQL", func(t *testing.T) string { return pgtest.NewDatabase(t) }},
	} {
		t.Run("on "+backend.name, func(t *testing.T) {
			t.Parallel()
			env := []string{"DATABASE_URL=" + backend.dsn(t), "BASE_PATH=/api", "JWT_SECRET=migrations-test-secret-0123456789abcdef",
				"APP_ENV=development", "LOG_REQUESTS=false", "ADMIN_EMAIL=" + starterAdminEmail, "ADMIN_PASSWORD=" + starterAdminPassword}

			apiCommand(t, withGadgets, env, "migrate", "up")
			if status := apiCommand(t, withGadgets, env, "migrate", "status"); !regexp.MustCompile(`(?m)^` + gadgets.version + `_create_gadgets\s+applied\b`).MatchString(status) {
				t.Fatalf("migrate status after gadgets:\n%s\nwant %s_create_gadgets applied", status, gadgets.version)
			}
			if out, want := apiCommand(t, withWidgets, env, "migrate", "up"), "migrated to group #2 ("+widgets.version+"_create_widgets)"; !strings.Contains(out, want) {
				t.Fatalf("migrate up with widgets wrote:\n%s\nwant %q", out, want)
			}
			base := testkit.ServeBinary(t, withWidgets, env...)
			createWidget(t, base)
			fetchBody(t, http.MethodGet, base+"/readyz", "", nil) // a 200: the names of the migrations agree

			p := testkit.Start(t, colliding, append(os.Environ(), append(env, "HOST=127.0.0.1", "PORT="+strconv.Itoa(testkit.Port(t)))...))
			select {
			case <-p.Done():
			case <-time.After(2 * time.Minute):
				t.Fatalf("the service with widgets under gadgets' version did not refuse to start:\n%s", p.Output())
			}
			want := "migration " + gadgets.version + " was applied to this database as create_gadgets, but the migration with that version is now create_widgets"
			if p.Err() == nil || !strings.Contains(p.Output(), want) || !strings.Contains(p.Output(), "give it a version of its own") {
				t.Errorf("the service with widgets under gadgets' version exited with %v, saying:\n%s\nwant a refusal saying %q and what to do", p.Err(), p.Output(), want)
			}
		})
	}
}

// migration is a migration file of a copy of the repository.
type migration struct{ version, path string }

// migrationFile returns the one migration file of dir named name.
func migrationFile(t *testing.T, dir, name string) migration {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "migrations", "*_"+name+".go"))
	if err != nil || len(files) != 1 {
		t.Fatalf("migrations named %s: %v %v, want one", name, files, err)
	}
	version, _, _ := strings.Cut(filepath.Base(files[0]), "_")
	return migration{version: version, path: files[0]}
}

// apiCommand runs the service binary bin with args and env added to the
// test's environment, and returns its output, failing t if it fails.
func apiCommand(t *testing.T, bin string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(testkit.Context(t), bin, args...)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("api %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// createWidget logs in as the bootstrap admin of the service at base and
// creates a widget: a 201.
func createWidget(t *testing.T, base string) {
	t.Helper()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	login := fetchBody(t, http.MethodPost, base+"/api/auth/login", "", map[string]string{"username": starterAdminEmail, "password": starterAdminPassword})
	if err := json.Unmarshal(login, &tok); err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, base+"/api/widgets", bytes.NewReader([]byte(`{"title":"first"}`)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	if res := servicetest.Fetch(t, req); res.Status != http.StatusCreated {
		t.Errorf("POST /api/widgets: %d %s, want 201", res.Status, res.Body)
	}
}
