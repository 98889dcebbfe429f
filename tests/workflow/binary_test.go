package workflow

import (
	"bytes"
	"context"
	"debug/elf"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/asapjs/fiber-template/internal/testkit"
)

// testVersion is stamped into the binary the way the Dockerfile stamps
// VERSION.
const testVersion = "v0.0.0-workflow"

// TestImageBinary builds cmd/api with the Dockerfile's own build flags and
// checks what the image relies on: the binary is static (the final image
// has no libc), carries its version, and answers the subcommands the image
// and the Taskfile run.
func TestImageBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cmd/api; skipped with -short")
	}
	t.Parallel()
	bin := buildLikeDockerfile(t)

	t.Run("it is statically linked", func(t *testing.T) {
		if runtime.GOOS != "linux" {
			t.Skip("the image is linux; this host builds another format")
		}
		f, err := elf.Open(bin)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		for _, p := range f.Progs {
			if p.Type == elf.PT_INTERP {
				t.Error("the binary has a program interpreter: it needs a dynamic loader the image lacks")
			}
		}
		if libs, _ := f.ImportedLibraries(); len(libs) > 0 {
			t.Errorf("the binary needs shared libraries %v", libs)
		}
		if f.Section(".symtab") != nil {
			t.Error("the binary keeps its symbol table: -s -w did not reach the linker")
		}
	})

	t.Run("version prints the stamped version without any configuration", func(t *testing.T) {
		// APP_ENV=production without JWT_SECRET would stop the service;
		// version must answer anyway.
		out, err := runAPI(t, bin, map[string]string{"APP_ENV": "production"}, "version")
		if err != nil {
			t.Fatalf("api version: %v\n%s", err, out)
		}
		if !strings.HasPrefix(out, "api "+testVersion+" ") {
			t.Errorf("api version printed %q, want it to start with api %s", out, testVersion)
		}
	})

	t.Run("spec -o writes the OpenAPI document without a database", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "spec.json")
		out, err := runAPI(t, bin, map[string]string{"DATABASE_URL": "postgres://nobody@127.0.0.1:1/none"}, "spec", "-o", path)
		if err != nil {
			t.Fatalf("api spec: %v\n%s", err, out)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			OpenAPI string         `json:"openapi"`
			Paths   map[string]any `json:"paths"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatalf("spec.json is not JSON: %v", err)
		}
		if doc.OpenAPI != "3.0.0" || doc.Paths["/health-check"] == nil {
			t.Errorf("spec.json has openapi %q and paths %v, want 3.0.0 with /health-check", doc.OpenAPI, sortedKeys(doc.Paths))
		}
	})

	t.Run("healthcheck passes against a running server and fails when nothing listens", func(t *testing.T) {
		if runtime.GOOS == "windows" {
			t.Skip("stops the server with SIGTERM, which Windows lacks")
		}
		port := testkit.Port(t)
		env := map[string]string{
			"HOST":         "127.0.0.1",
			"PORT":         strconv.Itoa(port),
			"DATABASE_URL": "sqlite:" + filepath.Join(t.TempDir(), "app.db"),
			"JWT_SECRET":   "workflow-test-secret-of-32-bytes-or-more",
			"APP_ENV":      "production",
		}
		stop := startServer(t, bin, env)

		deadline := time.Now().Add(60 * time.Second)
		for {
			out, err := runAPI(t, bin, env, "healthcheck")
			if err == nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("api healthcheck still fails after 60s: %v\n%s", err, out)
			}
			time.Sleep(200 * time.Millisecond)
		}

		stop()
		out, err := runAPI(t, bin, env, "healthcheck")
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() == 0 {
			t.Errorf("api healthcheck with nothing listening: %v, want a non-zero exit\n%s", err, out)
		}
	})
}

// buildLikeDockerfile builds cmd/api with the flags of the Dockerfile's
// build instruction, VERSION set to testVersion.
func buildLikeDockerfile(t *testing.T) string {
	t.Helper()
	build := dockerBuildCommand(t)
	m := regexp.MustCompile(`-ldflags "([^"]*)"`).FindStringSubmatch(build)
	if m == nil {
		t.Fatalf("no -ldflags \"...\" in the Dockerfile build: %s", build)
	}
	ldflags := strings.ReplaceAll(m[1], "${VERSION}", testVersion)

	return testkit.Build(t, "./cmd/api", []string{"CGO_ENABLED=0"}, "-trimpath", "-ldflags", ldflags)
}

// apiEnv is a minimal environment with the given configuration, so that
// the developer's own settings do not leak into the test.
func apiEnv(vars map[string]string) []string {
	env := []string{"PATH=" + os.Getenv("PATH")}
	for k, v := range vars {
		env = append(env, k+"="+v)
	}
	return env
}

// runAPI runs the binary to completion in an empty directory (so no .env
// is read) and returns its combined output.
func runAPI(t *testing.T, bin string, vars map[string]string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = t.TempDir()
	cmd.Env = apiEnv(vars)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// startServer starts "api serve" and returns a function that stops it with
// SIGTERM and waits for it; the function also runs when t ends.
func startServer(t *testing.T, bin string, vars map[string]string) (stop func()) {
	t.Helper()
	var logs bytes.Buffer
	cmd := exec.Command(bin, "serve")
	cmd.Dir = t.TempDir()
	cmd.Env = apiEnv(vars)
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatalf("start api: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stopped := false
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case err := <-exited:
			if err != nil {
				t.Errorf("api serve exited with %v\n%s", err, logs.String())
			}
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
			t.Errorf("api serve ignored SIGTERM for 20s\n%s", logs.String())
		}
	}
	t.Cleanup(stop)
	return stop
}
