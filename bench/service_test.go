package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/gofiber/fiber/v2"
	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/app"
	"github.com/asapjs/fiber-template/app/models"
	"github.com/asapjs/fiber-template/platform/router"
	"github.com/asapjs/fiber-template/tests/integration/pgtest"
)

// serviceUsers is how many users the service's list pages through.
const serviceUsers = 500

// BenchmarkServiceList measures the example service's own users list, its
// database included: GET /api/users?limit=20&role=member as an admin, on
// SQLite and on PostgreSQL (the integration harness's server), through
// the application's request handler. It is what a change to the request
// path (the deadline, the binder) is weighed on: the service against
// itself, before and after, in one run (bench/README.md).
func BenchmarkServiceList(b *testing.B) {
	for _, backend := range []string{"sqlite", "postgres"} {
		b.Run("db="+backend, func(b *testing.B) {
			var dsn string
			switch backend {
			case "sqlite":
				dir := b.TempDir()
				dsn = "sqlite:" + filepath.Join(dir, "app.db")
			case "postgres":
				if os.Getenv("BENCH_POSTGRES") == "" && os.Getenv("TEST_DATABASE_URL") == "" {
					b.Skip("set BENCH_POSTGRES=1 (the harness starts a server) or TEST_DATABASE_URL")
				}
				dsn = pgtest.NewDatabase(b)
			}
			fiberApp, authorization := serviceApp(b, dsn)
			HandlerAt(b, fiberApp, authorization, "/api/users?limit=20&role=member")
		})
	}
}

// BenchmarkServicePatch measures the example service's partial update:
// PATCH /api/users/{id} as an admin, a merge patch of the name, on SQLite.
// "change" changes it on every request (no If-Match, so the write's
// version check is the retry's), the database's write included; "same"
// sends the name it has, which the no-op detection answers without a
// write: the request path of a conditional write alone. Weighed against
// itself before and after a change.
func BenchmarkServicePatch(b *testing.B) {
	for _, tc := range []struct {
		name   string
		bodies [][]byte
	}{
		{"change", [][]byte{[]byte(`{"name":"Patched A"}`), []byte(`{"name":"Patched B"}`)}},
		{"same", [][]byte{[]byte(`{"name":"Patched A"}`)}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			fiberApp, authorization := serviceApp(b, "sqlite:"+filepath.Join(b.TempDir(), "app.db"))
			WriteAt(b, fiberApp, authorization, fiber.MethodPatch, "/api/users/1", "application/merge-patch+json", tc.bodies, 200)
		})
	}
}

// serviceApp opens and migrates the database at dsn as the service does,
// fills it with serviceUsers users, builds the service and logs an admin in.
func serviceApp(b *testing.B, dsn string) (*fiber.App, string) {
	b.Helper()
	ctx := b.Context()
	db, _ := migratedWithAdmin(b, dsn)
	if err := fillUsers(ctx, db, serviceUsers); err != nil {
		b.Fatal(err)
	}
	r, err := app.New(db, router.Config{
		BasePath:  "/api",
		JWTSecret: Secret(),
		Logger:    slog.New(slog.DiscardHandler),
		// The default answers a burst of logins with 429: the benchmark
		// logs in once, so any budget does.
	})
	if err != nil {
		b.Fatal(err)
	}
	form := url.Values{"username": {adminEmail}, "password": {adminPassword}}
	req := httptest.NewRequest("POST", "/api/auth/login", bytes.NewBufferString(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := r.App().Test(req, -1)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(res.Body).Decode(&tok); err != nil || tok.AccessToken == "" {
		b.Fatalf("login: status %d: %v", res.StatusCode, err)
	}
	return r.App(), "Bearer " + tok.AccessToken
}

// fillUsers inserts n members in one statement.
func fillUsers(ctx context.Context, db *bun.DB, n int) error {
	users := make([]models.User, n)
	for i := range users {
		users[i] = models.User{
			Email: fmt.Sprintf("member%d@example.com", i), Name: fmt.Sprintf("Member %d", i),
			PasswordHash: "x", Role: models.RoleMember, Active: true,
		}
	}
	_, err := db.NewInsert().Model(&users).Exec(ctx)
	return err
}
