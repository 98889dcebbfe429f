package integration

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/asapjs/fiber-template/internal/browsertest"
)

// listUsersBlock is the Swagger UI block of the listUsers operation: its
// id is operations-{tag}-{operationId}.
const listUsersBlock = "#operations-Users-listUsers"

// liveResponse is the row of the response the try-out got, below the
// header row of the same table.
const liveResponse = listUsersBlock + " .live-responses-table tbody .response"

// TestBrowserTriesTheAPIOutInTheDocs drives the docs UI as a developer would: authorize with
// the OAuth2 password flow, then try listUsers out and get the users. The
// Authorize dialog offers the password flow, which says the username is the
// email, and the bearer token, not the credentials of other services.
func TestBrowserTriesTheAPIOutInTheDocs(t *testing.T) {
	t.Parallel()
	a := newUserAPI(t, "sqlite:"+filepath.Join(t.TempDir(), "app.db"))
	// Listing users is for admins: the developer logs in as the test admin.
	const email, password = testAdminEmail, testAdminPassword
	a.adminToken(t)
	// The browser resolves no name but localhost, and its resolver rules
	// catch IP literals too, so the page is opened by that name.
	base := strings.Replace(serve(t, a.r), "127.0.0.1", "localhost", 1)

	browser := browsertest.Browser(t)
	if err := browsertest.WaitForOperations(browser, base+a.r.DocsURL(), []string{"List users", "Log in"}); err != nil {
		browsertest.Screenshot(browser, t, "loaded")
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(browser, browsertest.WaitTimeout)
	defer cancel()
	poll := func(js string) chromedp.Action {
		return chromedp.Poll(js, nil, chromedp.WithPollingInterval(100*time.Millisecond))
	}
	var (
		offered []string
		login   string
	)
	steps := []struct {
		name    string
		actions []chromedp.Action
	}{
		{"open the Authorize dialog", []chromedp.Action{
			chromedp.Click(".auth-wrapper .btn.authorize", chromedp.ByQuery),
			chromedp.WaitVisible("#oauth_username", chromedp.ByQuery),
		}},
		{"read the schemes it offers and what the password flow asks", []chromedp.Action{
			chromedp.Evaluate(`Array.from(document.querySelectorAll(".modal-ux .auth-container h4"), e => e.textContent.trim().split(/[\s\u00a0]/)[0]).sort()`, &offered),
			chromedp.Evaluate(`document.querySelector("#oauth_username").closest(".auth-container").innerText`, &login),
		}},
		{"fill in the password flow and authorize", []chromedp.Action{
			chromedp.SendKeys("#oauth_username", email, chromedp.ByQuery),
			chromedp.SendKeys("#oauth_password", password, chromedp.ByQuery),
			// The dialog lists both schemes; the button is the one of
			// the OAuth2 scheme the fields belong to.
			chromedp.Evaluate(`document.querySelector("#oauth_username").closest(".auth-container").querySelector(".btn.authorize").click()`, nil),
			poll(`(localStorage.getItem("authorized") || "").includes("access_token")`),
		}},
		{"close the dialog", []chromedp.Action{
			chromedp.Click(".modal-ux .close-modal", chromedp.ByQuery),
			chromedp.WaitNotPresent(".modal-ux", chromedp.ByQuery),
		}},
		{"expand List users", []chromedp.Action{
			chromedp.Click(listUsersBlock+" .opblock-summary-control", chromedp.ByQuery),
			chromedp.WaitVisible(listUsersBlock+" .try-out__btn", chromedp.ByQuery),
		}},
		{"try it out and execute", []chromedp.Action{
			chromedp.Click(listUsersBlock+" .try-out__btn", chromedp.ByQuery),
			chromedp.WaitVisible(listUsersBlock+" .execute", chromedp.ByQuery),
			chromedp.Click(listUsersBlock+" .execute", chromedp.ByQuery),
			chromedp.WaitVisible(listUsersBlock+" .live-responses-table", chromedp.ByQuery),
		}},
	}
	for _, s := range steps {
		if err := chromedp.Run(ctx, s.actions...); err != nil {
			browsertest.Screenshot(browser, t, "failed")
			t.Fatalf("%s: %v", s.name, err)
		}
	}

	// A person logs in with the password flow or pastes a token: the
	// document's clientAuth, for other services, is not offered.
	if want := []string{"OAuthLogin", "bearerAuth"}; !slices.Equal(offered, want) {
		t.Errorf("the Authorize dialog offers %q, want %q", offered, want)
	}
	if !strings.Contains(login, "username is the user's email") {
		t.Errorf("the password flow does not say that the username is the email:\n%s", login)
	}

	var status, body, curl string
	err := chromedp.Run(ctx,
		poll(fmt.Sprintf(`!!document.querySelector(%q)`, liveResponse+" .response-col_status")),
		chromedp.Text(liveResponse+" .response-col_status", &status, chromedp.ByQuery),
		chromedp.Text(liveResponse+" .response-col_description", &body, chromedp.ByQuery),
		chromedp.Text(listUsersBlock+" .curl-command", &curl, chromedp.ByQuery),
		chromedp.ScrollIntoView(listUsersBlock+" .live-responses-table", chromedp.ByQuery),
	)
	browsertest.Screenshot(browser, t, "list-users")
	if err != nil {
		t.Fatalf("read the response: %v", err)
	}
	if strings.TrimSpace(status) != fmt.Sprint(http.StatusOK) {
		t.Errorf("the response section shows status %q, want 200; body %s", status, body)
	}
	for _, want := range []string{`"data"`, email, `"total_elements": 1`} {
		if !strings.Contains(body, want) {
			t.Errorf("the response section does not show %s: %s", want, body)
		}
	}
	for _, w := range leaks([]byte(body), slices.Concat(leakWords, []string{password})) {
		t.Errorf("the response section reveals %q: %s", w, body)
	}
	if !strings.Contains(curl, "Authorization: Bearer ") {
		t.Errorf("the request sent no bearer token: %s", curl)
	}
}
