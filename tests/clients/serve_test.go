package clients

import (
	"path/filepath"
	"testing"

	"github.com/asapjs/fiber-template/internal/testkit"
)

const (
	adminEmail    = "admin@example.com"
	adminPassword = "client-admin-password"
)

// serve starts the built service on SQLite, with a bootstrap admin and no
// login throttle, until t ends, and returns the environment a client's
// tests reach it by: API_BASE_URL, ADMIN_EMAIL and ADMIN_PASSWORD.
func serve(t *testing.T) []string {
	t.Helper()
	bin := testkit.Build(t, "./cmd/api", nil)
	base := testkit.ServeBinary(t, bin,
		"DATABASE_URL=sqlite:"+filepath.Join(t.TempDir(), "api.db"),
		"JWT_SECRET=client-test-secret-of-at-least-32-bytes",
		"ADMIN_EMAIL="+adminEmail, "ADMIN_PASSWORD="+adminPassword,
		"AUTH_RATE_LIMIT=0", "LOG_LEVEL=warn")
	return []string{"API_BASE_URL=" + base, "ADMIN_EMAIL=" + adminEmail, "ADMIN_PASSWORD=" + adminPassword}
}
