package integration

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/asapjs/fiber-template/internal/testkit"
)

// apiPackage is the command the binary tests build.
const apiPackage = "github.com/asapjs/fiber-template/cmd/api"

// TestBinary runs cmd/api as a deployment would: a built binary configured
// by its environment and stopped by a signal.
func TestBinary(t *testing.T) {
	stopsTheBinary(t)
	t.Parallel()
	bin := buildAPI(t)

	t.Run("it stops with status 0 soon after SIGTERM", func(t *testing.T) {
		t.Parallel()
		port := testkit.Port(t)
		api := startAPI(t, bin, map[string]string{
			"HOST":         "127.0.0.1",
			"PORT":         strconv.Itoa(port),
			"DATABASE_URL": "sqlite:" + filepath.Join(t.TempDir(), "app.db"),
			"JWT_SECRET":   "integration-test-secret-of-32-bytes-or-more",
		})
		api.WaitOK(t, healthCheck(port))

		if err := api.Cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatalf("send SIGTERM: %v", err)
		}
		const promptly = 5 * time.Second // well under the 15s shutdown timeout
		select {
		case <-api.Done():
			if api.Err() != nil {
				t.Fatalf("exit after SIGTERM: %v, want status 0\n%s", api.Err(), api.Output())
			}
		case <-time.After(promptly):
			t.Fatalf("still running %v after SIGTERM\n%s", promptly, api.Output())
		}
	})

	t.Run("with METRICS_ADDR, /metrics is served there and not on the service's port", func(t *testing.T) {
		t.Parallel()
		port, metricsPort := testkit.Port(t), testkit.Port(t)
		api := startAPI(t, bin, sqliteAPI(t, port, map[string]string{"METRICS_ADDR": "127.0.0.1:" + strconv.Itoa(metricsPort)}))
		api.WaitOK(t, healthCheck(port))
		get := func(url string) (int, string) {
			t.Helper()
			res, err := http.Get(url)
			if err != nil {
				t.Fatalf("GET %s: %v\n%s", url, err, api.Output())
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			return res.StatusCode, string(b)
		}
		status, body := get(fmt.Sprintf("http://127.0.0.1:%d/metrics", metricsPort))
		// The health checks above were counted, on the service's port.
		if status != http.StatusOK || !strings.Contains(body, `http_requests_total{method="GET",route="/health-check",status="200"}`) {
			t.Errorf("metrics port: %d, want 200 with the service's request counts:\n%.2000s", status, body)
		}
		if status, body := get(fmt.Sprintf("http://127.0.0.1:%d/metrics", port)); status != http.StatusNotFound {
			t.Errorf("service port: GET /metrics = %d %.300s, want 404", status, body)
		}
	})

	t.Run("it refuses a METRICS_ADDR already in use", func(t *testing.T) {
		t.Parallel()
		taken, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer taken.Close()
		wantRefusal(t, bin, sqliteAPI(t, testkit.Port(t), map[string]string{"METRICS_ADDR": taken.Addr().String()}), "listen for metrics")
	})

	t.Run("it refuses APP_ENV=production without JWT_SECRET", func(t *testing.T) {
		t.Parallel()
		wantRefusal(t, bin, map[string]string{
			"APP_ENV":      "production",
			"HOST":         "127.0.0.1",
			"PORT":         strconv.Itoa(testkit.Port(t)),
			"DATABASE_URL": "sqlite:" + filepath.Join(t.TempDir(), "app.db"),
		}, "JWT_SECRET")
	})
}

// runsTheBinary skips t under -short: it builds and runs cmd/api.
func runsTheBinary(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs cmd/api; skipped with -short")
	}
}

// stopsTheBinary is runsTheBinary for a test that stops cmd/api with
// SIGTERM, which Windows lacks.
func stopsTheBinary(t *testing.T) {
	t.Helper()
	runsTheBinary(t)
	if runtime.GOOS == "windows" {
		t.Skip("stops the binary with SIGTERM, which Windows lacks")
	}
}

// buildAPI builds cmd/api into t's temporary directory.
func buildAPI(t *testing.T) string {
	t.Helper()
	return testkit.Build(t, apiPackage, nil)
}

// apiEnv is a minimal environment with the given configuration, so nothing
// from the test's own environment configures the binary.
func apiEnv(config map[string]string) []string {
	env := []string{"PATH=" + os.Getenv("PATH")}
	if tmp, ok := os.LookupEnv("TMPDIR"); ok {
		env = append(env, "TMPDIR="+tmp)
	}
	for k, v := range config {
		env = append(env, k+"="+v)
	}
	return env
}

// startAPI starts the binary with exactly the given configuration as its
// environment (see apiEnv).
func startAPI(t *testing.T, bin string, config map[string]string) *testkit.Process {
	t.Helper()
	return testkit.Start(t, bin, apiEnv(config))
}

// wantRefusal runs the binary with exactly the given configuration and
// checks that it exits at once with a non-zero status and output naming
// want, as a service that must not start does.
func wantRefusal(t *testing.T, bin string, config map[string]string, want string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin)
	cmd.Env = apiEnv(config)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() == 0 || !strings.Contains(string(out), want) {
		t.Fatalf("run: %v, want a non-zero exit naming %q\n%s", err, want, out)
	}
}

// healthCheck is the URL of the health check of a binary on loopback port.
func healthCheck(port int) string {
	return fmt.Sprintf("http://127.0.0.1:%d/health-check", port)
}

// sqliteAPI is the configuration of a binary on loopback port with a
// fresh SQLite database, plus extra.
func sqliteAPI(t *testing.T, port int, extra map[string]string) map[string]string {
	t.Helper()
	config := map[string]string{
		"HOST":         "127.0.0.1",
		"PORT":         strconv.Itoa(port),
		"DATABASE_URL": "sqlite:" + filepath.Join(t.TempDir(), "app.db"),
		"JWT_SECRET":   "integration-test-secret-0123456789abcdef",
	}
	maps.Copy(config, extra)
	return config
}
