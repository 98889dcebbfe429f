package docs_test

import (
	"encoding/base64"
	"testing"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/docs"
	"github.com/asapjs/fiber-template/platform/problem"
)

// guarded returns an app answering "ok" at / behind a guard built from cfg.
func guarded(cfg docs.GuardConfig) *fiber.App {
	app := newFiber()
	app.Get("/", docs.Guard(cfg), func(c *fiber.Ctx) error { return c.SendString("ok") })
	return app
}

// wantChallenge checks that got is the 401 answer of the guard to a
// request of method, which has a problem details body unless it is HEAD.
func wantChallenge(t *testing.T, method string, got response, realm string) {
	t.Helper()
	if got.status != fiber.StatusUnauthorized {
		t.Fatalf("status = %d, want 401", got.status)
	}
	if got, want := got.header.Get(fiber.HeaderWWWAuthenticate), `Basic realm="`+realm+`"`; got != want {
		t.Errorf("WWW-Authenticate = %q, want %q", got, want)
	}
	if got := got.header.Get(fiber.HeaderContentType); got != problem.ContentType {
		t.Errorf("Content-Type = %q, want %q", got, problem.ContentType)
	}
	if method == fiber.MethodHead {
		return
	}
	wantProblem(t, got, problem.ErrUnauthorized)
}

func TestGuard(t *testing.T) {
	t.Parallel()
	users := map[string]string{"alice": "wonder:land", "bob": "builder"}
	cases := []struct {
		name   string
		header string
		pass   bool
	}{
		{"a request without an Authorization header is refused", "", false},
		{"a Bearer token is refused", "Bearer " + base64.StdEncoding.EncodeToString([]byte("alice:wonder:land")), false},
		{"the Basic scheme without credentials is refused", "Basic", false},
		{"credentials that are not base64 are refused", "Basic !!not*base64!!", false},
		{"credentials without a colon are refused", "Basic " + base64.StdEncoding.EncodeToString([]byte("alice")), false},
		{"an unknown user is refused", basic("mallory", "wonder:land"), false},
		{"a known user with a wrong password is refused", basic("alice", "wonder"), false},
		{"a known user with another user's password is refused", basic("alice", "builder"), false},
		{"an empty user name and password are refused", basic("", ""), false},
		{"the right credentials are let through, colons in the password included", basic("alice", "wonder:land"), true},
		{"the scheme name is matched without regard to case", "bAsIc " + base64.StdEncoding.EncodeToString([]byte("bob:builder")), true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var header []string
			if tc.header != "" {
				header = []string{fiber.HeaderAuthorization, tc.header}
			}
			got := request(t, guarded(docs.GuardConfig{Users: users}), fiber.MethodGet, "/", header...)
			if !tc.pass {
				wantChallenge(t, fiber.MethodGet, got, "Developer")
				return
			}
			if got.status != fiber.StatusOK || string(got.body) != "ok" {
				t.Errorf("got %d %q, want 200 \"ok\" from the next handler", got.status, got.body)
			}
		})
	}
}

func TestGuardRealm(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, realm, want string
	}{
		{"the realm is Developer by default", "", "Developer"},
		{"a configured realm is used", "Staff", "Staff"},
		{"quotes and backslashes in the realm are escaped", `the "inner\circle"`, `the \"inner\\circle\"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			app := guarded(docs.GuardConfig{Users: map[string]string{"dev": "pw"}, Realm: tc.realm})
			wantChallenge(t, fiber.MethodGet, request(t, app, fiber.MethodGet, "/"), tc.want)
		})
	}
}

func TestGuardWithoutUsers(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		users map[string]string
	}{
		{"a guard with a nil user map refuses everyone", nil},
		{"a guard with an empty user map refuses everyone", map[string]string{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			app := guarded(docs.GuardConfig{Users: tc.users})
			wantChallenge(t, fiber.MethodGet, request(t, app, fiber.MethodGet, "/", fiber.HeaderAuthorization, basic("", "")), "Developer")
		})
	}
}

func TestTheGuardCoversEverythingUnderThePrefix(t *testing.T) {
	t.Parallel()
	const prefix = "/api/docs"
	users := map[string]string{"dev": "s3cret"}
	app := newFiber()
	if err := docs.Register(app, docs.Config{Prefix: prefix, Guard: docs.Guard(docs.GuardConfig{Users: users, MaxFailures: 1000})}); err != nil {
		t.Fatal(err)
	}
	// Registered after Register, as the router registers the spec.
	app.Get(prefix+"/spec.json", func(c *fiber.Ctx) error { return c.JSON(fiber.Map{"openapi": "3.0.0"}) })
	app.Get("/api/docsearch", func(c *fiber.Ctx) error { return c.SendString("not docs") })

	page := request(t, app, fiber.MethodGet, prefix+"/spec-ui.html", fiber.HeaderAuthorization, basic("dev", "s3cret"))
	if page.status != fiber.StatusOK {
		t.Fatalf("page with credentials = %d, want 200", page.status)
	}
	type target struct {
		name, method, path string
		status             int // with credentials
	}
	targets := []target{
		{"the page", fiber.MethodGet, prefix + "/spec-ui.html", fiber.StatusOK},
		{"the page asked with HEAD", fiber.MethodHead, prefix + "/spec-ui.html", fiber.StatusOK},
		{"the page asked with POST", fiber.MethodPost, prefix + "/spec-ui.html", fiber.StatusNotFound},
		{"the prefix", fiber.MethodGet, prefix, fiber.StatusFound},
		{"the prefix with a slash", fiber.MethodGet, prefix + "/", fiber.StatusFound},
		{"an unknown file", fiber.MethodGet, prefix + "/unknown.txt", fiber.StatusNotFound},
		{"the spec registered later under the prefix", fiber.MethodGet, prefix + "/spec.json", fiber.StatusOK},
	}
	for _, ref := range references(t, "http://example.test"+prefix+"/spec-ui.html", page.body) {
		targets = append(targets, target{"the asset " + ref.Path, fiber.MethodGet, ref.Path, fiber.StatusOK})
	}
	for _, tg := range targets {
		t.Run(tg.name+" needs credentials", func(t *testing.T) {
			t.Parallel()
			wantChallenge(t, tg.method, request(t, app, tg.method, tg.path), "Developer")
			wantChallenge(t, tg.method, request(t, app, tg.method, tg.path, fiber.HeaderAuthorization, basic("dev", "wrong")), "Developer")
			if got := request(t, app, tg.method, tg.path, fiber.HeaderAuthorization, basic("dev", "s3cret")); got.status != tg.status {
				t.Errorf("%s %s with credentials = %d, want %d", tg.method, tg.path, got.status, tg.status)
			}
		})
	}

	t.Run("a sibling path that merely starts with the prefix stays open", func(t *testing.T) {
		t.Parallel()
		if got := request(t, app, fiber.MethodGet, "/api/docsearch"); got.status != fiber.StatusOK {
			t.Errorf("GET /api/docsearch = %d, want 200", got.status)
		}
	})
}
