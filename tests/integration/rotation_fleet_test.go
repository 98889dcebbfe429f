package integration

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/asapjs/fiber-template/internal/testkit"
	"github.com/asapjs/fiber-template/platform/token"
	"github.com/asapjs/fiber-template/tests/integration/pgtest"
)

// TestAFleetMidRotationSharesCursorsAndRetries starts the built binary
// twice on one PostgreSQL database, as a rolling restart after api keys
// rotate leaves a fleet for a while: one instance on the old key file, the
// other on the rotated one, whose new key signs. With the same
// PAGING_CURSOR_SECRET and IDEMPOTENCY_SECRET, each follows the other's
// list cursors, and a sign-up retried on the other instance with its
// Idempotency-Key is the first answer replayed (not a 400 and a 422, as
// when both keys were derived from the signing key). Without them,
// production with signing keys refuses to start.
func TestAFleetMidRotationSharesCursorsAndRetries(t *testing.T) {
	runsTheBinary(t)
	t.Parallel()
	bin := buildAPI(t)
	dir := t.TempDir()
	before, rotated := filepath.Join(dir, "keys-before.pem"), filepath.Join(dir, "keys-rotated.pem")
	key, err := token.GenerateEd25519()
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{before, rotated} {
		if err := os.WriteFile(file, key, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command(bin, "keys", "rotate", "-file", rotated).CombinedOutput(); err != nil {
		t.Fatalf("keys rotate: %v\n%s", err, out)
	}

	t.Run("production with signing keys and no secrets of their own refuses to start", func(t *testing.T) {
		t.Parallel()
		wantRefusal(t, bin, map[string]string{
			"APP_ENV": "production", "HOST": "127.0.0.1", "PORT": strconv.Itoa(testkit.Port(t)),
			"DATABASE_URL": "sqlite:" + filepath.Join(t.TempDir(), "app.db"), "JWT_SIGNING_KEYS_FILE": before,
		}, "PAGING_CURSOR_SECRET and IDEMPOTENCY_SECRET are required")
	})

	t.Run("on PostgreSQL, the instances follow each other's cursors and replay each other's answers", func(t *testing.T) {
		t.Parallel()
		dsn := pgtest.NewDatabase(t)
		bases := make([]string, 2)
		for i, keys := range []string{before, rotated} {
			port := testkit.Port(t)
			bases[i] = fmt.Sprintf("http://127.0.0.1:%d", port)
			p := startAPI(t, bin, map[string]string{
				"HOST": "127.0.0.1", "PORT": strconv.Itoa(port), "DATABASE_URL": dsn, "APP_ENV": "production",
				"JWT_SIGNING_KEYS_FILE": keys, "PAGING_CURSOR_SECRET": "fleet-cursor-secret-of-32-bytes-or-more",
				"IDEMPOTENCY_SECRET": "fleet-idempotency-secret-of-32-bytes-or-more",
				"ADMIN_EMAIL":        "fleet@example.com", "ADMIN_PASSWORD": "fleet-admin-pass-1", "AUTH_RATE_LIMIT": "0",
			})
			p.WaitOK(t, healthCheck(port))
		}
		// A token of the old key, which both instances verify.
		admin := decodeToken(t, call(t, bases[0], http.MethodPost, "/api/auth/login", "", nil, `{"username":"fleet@example.com","password":"fleet-admin-pass-1"}`))
		for i := range 4 {
			body := fmt.Sprintf(`{"email":"fleet%d@example.com","name":"Fleet %d","password":"fleet-user-pass-1"}`, i, i)
			call(t, bases[i%2], http.MethodPost, "/api/users", "", nil, body).wantUser(t, http.StatusCreated)
		}

		for from, to := range []int{1, 0} {
			t.Run(fmt.Sprintf("instance %d's cursor is followed by instance %d", from, to), func(t *testing.T) {
				var first, next pageJSON
				call(t, bases[from], http.MethodGet, "/api/users?limit=2&sort=name", admin, nil, "").decode(t, http.StatusOK, &first)
				if first.NextCursor == "" {
					t.Fatal("the first page has no next_cursor")
				}
				call(t, bases[to], http.MethodGet, "/api/users?sort=name&cursor="+url.QueryEscape(first.NextCursor), admin, nil, "").
					decode(t, http.StatusOK, &next)
				if next.Page != 1 || len(next.Data) != 2 || next.Data[0].ID == first.Data[1].ID {
					t.Errorf("the page after the cursor: page %d with ids %v, after ids %v", next.Page, userIDs(next), userIDs(first))
				}
			})
			t.Run(fmt.Sprintf("a sign-up on instance %d retried on instance %d is replayed", from, to), func(t *testing.T) {
				key := map[string]string{"Idempotency-Key": fmt.Sprintf("fleet-signup-%d", from)}
				body := fmt.Sprintf(`{"email":"retried%d@example.com","name":"Retried","password":"fleet-user-pass-1"}`, from)
				first := call(t, bases[from], http.MethodPost, "/api/users", "", key, body)
				created := first.wantUser(t, http.StatusCreated)
				again := call(t, bases[to], http.MethodPost, "/api/users", "", key, body)
				if again.wantUser(t, http.StatusCreated).ID != created.ID || again.header.Get("Idempotent-Replayed") != "true" {
					t.Errorf("the retry: replayed %q, body %s; want the first answer %s replayed", again.header.Get("Idempotent-Replayed"), again.body, first.body)
				}
			})
		}
	})
}
