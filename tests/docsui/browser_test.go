package docsui_test

import (
	"context"
	"encoding/base64"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/internal/browsertest"
	"github.com/asapjs/fiber-template/platform/docs"
	"github.com/asapjs/fiber-template/platform/servicetest"
)

// petsSpec is a small OpenAPI 3.0.0 document with two operations and the
// schemes the service declares: the password flow, with a role as its
// scope and a description that says what the username is, a bearer token,
// and the HTTP Basic credentials of other services.
const petsSpec = `{
  "openapi": "3.0.0",
  "info": {"title": "Pets", "version": "1.0.0"},
  "paths": {
    "/api/pets": {
      "get": {"summary": "List pets", "operationId": "listPets", "responses": {"200": {"description": "The pets"}}},
      "post": {"summary": "Create a pet", "operationId": "createPet", "responses": {"201": {"description": "The new pet"}}}
    }
  },
  "components": {
    "securitySchemes": {
      "OAuthLogin": {"type": "oauth2", "description": "The username is the user's email address.", "flows": {"password": {"tokenUrl": "/api/auth/login", "scopes": {"admin": "Callers with the role admin"}}}},
      "bearerAuth": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"},
      "clientAuth": {"type": "http", "scheme": "basic", "description": "The id and secret of a client"}
    }
  },
  "security": [{"OAuthLogin": []}, {"bearerAuth": []}]
}`

// petsOperations are the summaries of the operations of petsSpec.
var petsOperations = []string{"List pets", "Create a pet"}

// docsApp returns an app serving the docs by cfg and petsSpec at specPath.
func docsApp(t *testing.T, cfg docs.Config, specPath string) *fiber.App {
	t.Helper()
	app := fiber.New(fiber.Config{DisableStartupMessage: true})
	if err := docs.Register(app, cfg); err != nil {
		t.Fatal(err)
	}
	app.Get(specPath, func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
		return c.SendString(petsSpec)
	})
	return app
}

// wantOnlyRequestsTo fails t for every recorded request to a host other
// than the one of base.
func wantOnlyRequestsTo(t *testing.T, base string, requests []string) {
	t.Helper()
	self, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range requests {
		u, err := url.Parse(r)
		if err != nil {
			t.Errorf("browser requested unparsable URL %q", r)
			continue
		}
		if (u.Scheme == "http" || u.Scheme == "https" || u.Scheme == "ws" || u.Scheme == "wss") && u.Host != self.Host {
			t.Errorf("browser requested %s, outside the server under test", r)
		}
	}
	if len(requests) == 0 {
		t.Error("no request was recorded")
	}
}

// dialogFields is a script that lists, sorted, the ids of the inputs and
// selects of the password flow in the open Authorize dialog, and "scopes"
// when it offers scopes.
const dialogFields = `(() => {
	const dialog = document.querySelector("#oauth_username").closest(".auth-container");
	const ids = Array.from(dialog.querySelectorAll("input, select, textarea"), e => e.id || e.name || e.type);
	if (dialog.querySelector(".scopes")) ids.push("scopes");
	return ids.sort();
})()`

// dialogSchemes is a script that lists, sorted, the names of the schemes
// the open Authorize dialog offers: the first word of each heading, as in
// "OAuthLogin (OAuth2, password)" or "bearerAuth (http, Bearer)".
const dialogSchemes = `Array.from(document.querySelectorAll(".modal-ux .auth-container h4"), e => e.textContent.trim().split(/[\s\u00a0]/)[0]).sort()`

// loginText is a script that returns the text of the password flow's part
// of the open Authorize dialog: its heading, description and boxes.
const loginText = `document.querySelector("#oauth_username").closest(".auth-container").innerText`

func TestBrowserShowsTheDocsUI(t *testing.T) {
	browser := browsertest.Browser(t)
	cases := []struct {
		name     string
		cfg      docs.Config
		specPath string
		auth     string // Authorization header the browser sends, if any
	}{
		{
			name:     "shows the operations under /api/docs",
			cfg:      docs.Config{Prefix: "/api/docs"},
			specPath: "/api/docs/spec.json",
		},
		{
			name:     "shows the operations under the root prefix /docs with a relative spec URL",
			cfg:      docs.Config{Prefix: "/docs", SpecURL: "spec.json"},
			specPath: "/docs/spec.json",
		},
		{
			name:     "shows the operations behind the guard to a user with credentials",
			cfg:      docs.Config{Prefix: "/api/docs", Guard: docs.Guard(docs.GuardConfig{Users: map[string]string{"dev": "s3cret"}})},
			specPath: "/api/docs/spec.json",
			auth:     "Basic " + base64.StdEncoding.EncodeToString([]byte("dev:s3cret")),
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			base := servicetest.Serve(t, docsApp(t, tc.cfg, tc.specPath))
			tab, cancel := chromedp.NewContext(browser)
			defer cancel()
			requests := browsertest.RecordRequests(tab)
			if tc.auth != "" {
				if err := chromedp.Run(tab, network.SetExtraHTTPHeaders(network.Headers{"Authorization": tc.auth})); err != nil {
					t.Fatal(err)
				}
			}
			page := base + strings.TrimSuffix(tc.cfg.Prefix, "/") + "/spec-ui.html"
			err := browsertest.WaitForOperations(tab, page, petsOperations)
			browsertest.Screenshot(tab, t, "operations")
			if err != nil {
				t.Fatal(err)
			}
			wantOnlyRequestsTo(t, base, requests())
		})
	}

	t.Run("keeps the password flow token across a reload", func(t *testing.T) {
		var (
			mu    sync.Mutex
			forms []string
		)
		app := docsApp(t, docs.Config{Prefix: "/api/docs", Schemes: []string{"OAuthLogin", "bearerAuth"}}, "/api/docs/spec.json")
		app.Post("/api/auth/login", func(c *fiber.Ctx) error {
			mu.Lock()
			forms = append(forms, string(c.Body()))
			mu.Unlock()
			return c.JSON(fiber.Map{"access_token": "token-from-login", "token_type": "bearer", "expires_in": 3600})
		})
		base := servicetest.Serve(t, app)
		tab, cancel := chromedp.NewContext(browser)
		defer cancel()
		requests := browsertest.RecordRequests(tab)
		if err := browsertest.WaitForOperations(tab, base+"/api/docs/spec-ui.html", petsOperations); err != nil {
			t.Fatal(err)
		}

		ctx, cancelSteps := context.WithTimeout(tab, browsertest.WaitTimeout)
		defer cancelSteps()
		var (
			stored, login  string
			asked, offered []string
		)
		steps := []struct {
			name   string
			action chromedp.Action
		}{
			{"open the Authorize dialog", chromedp.Click(".auth-wrapper .btn.authorize", chromedp.ByQuery)},
			{"type the user name", chromedp.SendKeys("#oauth_username", "dev", chromedp.ByQuery)},
			{"type the password", chromedp.SendKeys("#oauth_password", "s3cret", chromedp.ByQuery)},
			{"list what the dialog asks for", chromedp.Evaluate(dialogFields, &asked)},
			{"list the schemes the dialog offers", chromedp.Evaluate(dialogSchemes, &offered)},
			{"read the password flow's part", chromedp.Evaluate(loginText, &login)},
			{"authorize", chromedp.Click(".modal-ux .auth-btn-wrapper .btn.authorize", chromedp.ByQuery)},
			{"wait for the token to be stored", chromedp.Poll(`(localStorage.getItem("authorized") || "").includes("token-from-login")`, nil, chromedp.WithPollingInterval(100*time.Millisecond))},
			{"reload", chromedp.Reload()},
			{"wait for the lock to show the user as authorized", chromedp.WaitVisible(".auth-wrapper .btn.authorize.locked", chromedp.ByQuery)},
			{"read the stored authorization", chromedp.Evaluate(`localStorage.getItem("authorized")`, &stored)},
		}
		for _, step := range steps {
			if err := chromedp.Run(ctx, step.action); err != nil {
				browsertest.Screenshot(tab, t, "failed")
				t.Fatalf("%s: %v", step.name, err)
			}
		}
		// The login reads user name and password only: a box for a client
		// id or secret, their location, or a scope would do nothing.
		if want := []string{"oauth_password", "oauth_username"}; !slices.Equal(asked, want) {
			t.Errorf("the Authorize dialog asks for %q, want only %q", asked, want)
		}
		// A person logs in or pastes a token; the credentials of other
		// services stay in the document, out of the dialog.
		if want := []string{"OAuthLogin", "bearerAuth"}; !slices.Equal(offered, want) {
			t.Errorf("the Authorize dialog offers %q, want %q", offered, want)
		}
		if !strings.Contains(login, "username is the user's email") {
			t.Errorf("the password flow does not say that the username is the email:\n%s", login)
		}
		browsertest.Screenshot(tab, t, "authorized")
		if !strings.Contains(stored, "token-from-login") {
			t.Errorf("after the reload the stored authorization is %q, want the token", stored)
		}
		mu.Lock()
		defer mu.Unlock()
		if len(forms) != 1 {
			t.Fatalf("token endpoint called %d times, want once", len(forms))
		}
		form, err := url.ParseQuery(forms[0])
		if err != nil {
			t.Fatal(err)
		}
		if form.Get("grant_type") != "password" || form.Get("username") != "dev" || form.Get("password") != "s3cret" {
			t.Errorf("token request form = %v, want the password grant with the typed credentials", form)
		}
		wantOnlyRequestsTo(t, base, requests())
	})
}
