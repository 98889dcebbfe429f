package apiclient_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"sync/atomic"
	"testing"

	openapi_types "github.com/oapi-codegen/runtime/types"

	"github.com/asapjs/fiber-template/clients/go/apiclient"
)

// countingDoer counts the requests of a client.
type countingDoer struct {
	n atomic.Int64
}

func (d *countingDoer) Do(req *http.Request) (*http.Response, error) {
	d.n.Add(1)
	return http.DefaultClient.Do(req)
}

// TestListUsersAllWalksEveryPage signs up users through the client, logs
// in as the admin and iterates the users list with ListUsersAll, ten a
// page: every user comes once, over more than three pages.
func TestListUsersAllWalksEveryPage(t *testing.T) {
	base, adminEmail, adminPassword := service(t)
	ctx := context.Background()
	doer := &countingDoer{}
	c, err := apiclient.NewClientWithResponses(base, apiclient.WithHTTPClient(doer))
	if err != nil {
		t.Fatal(err)
	}
	const users = 35
	want := map[string]bool{}
	for i := range users {
		email := fmt.Sprintf("go-walker%02d@example.com", i)
		r, err := c.CreateUserWithResponse(ctx, nil, apiclient.CreateUserRequest{
			Email: openapi_types.Email(email), Name: "Walker " + strconv.Itoa(i), Password: "walker-password-" + strconv.Itoa(i)})
		if err != nil {
			t.Fatal(err)
		}
		if r.JSON201 == nil {
			t.Fatalf("sign up %s: status %d: %s", email, r.StatusCode(), r.Body)
		}
		want[email] = true
	}
	grant := apiclient.LoginRequestGrantType("password")
	login, err := c.LoginWithResponse(ctx, apiclient.LoginRequest{GrantType: &grant, Username: adminEmail, Password: adminPassword})
	if err != nil {
		t.Fatal(err)
	}
	if login.JSON200 == nil {
		t.Fatalf("login: status %d: %s", login.StatusCode(), login.Body)
	}
	auth := bearer(login.JSON200.AccessToken)

	// The filter holds on every page: only the users signed up here.
	limit, query := int32(10), "go-walker"
	before := doer.n.Load()
	seen := map[string]int{}
	ids := map[int64]bool{}
	for u, err := range c.ListUsersAll(ctx, &apiclient.ListUsersParams{Limit: &limit, Q: &query}, auth) {
		if err != nil {
			t.Fatalf("ListUsersAll: %v", err)
		}
		seen[string(u.Email)]++
		if ids[int64(u.Id)] {
			t.Errorf("user %d came twice", u.Id)
		}
		ids[int64(u.Id)] = true
	}
	for email := range want {
		if seen[email] != 1 {
			t.Errorf("%s came %d times, want once", email, seen[email])
		}
	}
	if len(seen) != len(want) {
		t.Errorf("got %d users, want %d", len(seen), len(want))
	}
	if pages := doer.n.Load() - before; pages <= 3 {
		t.Errorf("fetched %d pages, want more than 3 (%d users, %d a page)", pages, len(want), limit)
	}

	// Without the token the first page is a 401, which stops the walk.
	for _, err := range c.ListUsersAll(ctx, nil) {
		var se *apiclient.StatusError
		if !errors.As(err, &se) || se.Status != http.StatusUnauthorized {
			t.Errorf("without a token: %v, want a 401 StatusError", err)
		}
	}
}

// TestSignUpLogInRefresh goes through the account flow a client of the
// service does, every call through the typed client: sign up, log in with
// the OAuth2 form as the admin, refresh the session, list members with the
// new token, and read a 401 problem without one.
func TestSignUpLogInRefresh(t *testing.T) {
	base, adminEmail, adminPassword := service(t)
	ctx := context.Background()
	c, err := apiclient.NewClientWithResponses(base)
	if err != nil {
		t.Fatal(err)
	}
	const email = "generated@example.com"
	created, err := c.CreateUserWithResponse(ctx, nil, apiclient.CreateUserRequest{
		Email: openapi_types.Email(email), Name: "Generated Client", Password: "generated-client-pass"})
	if err != nil {
		t.Fatal(err)
	}
	if created.JSON201 == nil || created.JSON201.Role != apiclient.UserRoleMember {
		t.Fatalf("createUser: status %d: %s", created.StatusCode(), created.Body)
	}
	grant := apiclient.LoginFormdataBodyGrantType("password")
	login, err := c.LoginWithFormdataBodyWithResponse(ctx, apiclient.LoginFormdataRequestBody{
		GrantType: &grant, Username: adminEmail, Password: adminPassword})
	if err != nil {
		t.Fatal(err)
	}
	if login.JSON200 == nil {
		t.Fatalf("login: status %d: %s", login.StatusCode(), login.Body)
	}
	refreshGrant := apiclient.RefreshFormdataBodyGrantType("refresh_token")
	refreshed, err := c.RefreshWithFormdataBodyWithResponse(ctx, apiclient.RefreshFormdataRequestBody{
		GrantType: &refreshGrant, RefreshToken: login.JSON200.RefreshToken})
	if err != nil {
		t.Fatal(err)
	}
	if refreshed.JSON200 == nil || refreshed.JSON200.RefreshToken == login.JSON200.RefreshToken {
		t.Fatalf("refresh: status %d, want a new pair: %s", refreshed.StatusCode(), refreshed.Body)
	}
	auth := bearer(refreshed.JSON200.AccessToken)
	role, query := apiclient.ListUsersParamsRoleMember, "generated@"
	list, err := c.ListUsersWithResponse(ctx, &apiclient.ListUsersParams{Role: &role, Q: &query}, auth)
	if err != nil {
		t.Fatal(err)
	}
	if list.JSON200 == nil || len(list.JSON200.Data) != 1 || list.JSON200.Data[0].Email != email {
		t.Fatalf("listUsers role=member: status %d: %s", list.StatusCode(), list.Body)
	}
	unauthorized, err := c.ListUsersWithResponse(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p := unauthorized.ApplicationproblemJSON401; p == nil || p.Status != http.StatusUnauthorized {
		t.Fatalf("listUsers without a token: status %d, want a 401 problem: %s", unauthorized.StatusCode(), unauthorized.Body)
	}
}

// TestSessionsCanBeListedAndEnded logs the admin in twice, lists its
// sessions with the second login's token and ends the first: its access
// token stops working, the second's does not.
func TestSessionsCanBeListedAndEnded(t *testing.T) {
	base, adminEmail, adminPassword := service(t)
	ctx := context.Background()
	c, err := apiclient.NewClientWithResponses(base)
	if err != nil {
		t.Fatal(err)
	}
	grant := apiclient.LoginRequestGrantType("password")
	var tokens []string
	for _, agent := range []string{"go-client-phone", "go-client-laptop"} {
		login, err := c.LoginWithResponse(ctx, apiclient.LoginRequest{GrantType: &grant, Username: adminEmail, Password: adminPassword},
			func(_ context.Context, req *http.Request) error { req.Header.Set("User-Agent", agent); return nil })
		if err != nil || login.JSON200 == nil {
			t.Fatalf("login: %v %v", err, login)
		}
		tokens = append(tokens, login.JSON200.AccessToken)
	}
	list, err := c.ListSessionsWithResponse(ctx, nil, bearer(tokens[1]))
	if err != nil || list.JSON200 == nil {
		t.Fatalf("listSessions: %v %v", err, list)
	}
	var phone, laptop *apiclient.Session
	for i, s := range list.JSON200.Data {
		if s.UserAgent == nil {
			continue
		}
		switch *s.UserAgent {
		case "go-client-phone":
			phone = &list.JSON200.Data[i]
		case "go-client-laptop":
			laptop = &list.JSON200.Data[i]
		}
	}
	if phone == nil || laptop == nil || !laptop.Current || phone.Current {
		t.Fatalf("listSessions: %s; want both logins, the laptop's current", list.Body)
	}
	end, err := c.EndSessionWithResponse(ctx, phone.Id, bearer(tokens[1]))
	if err != nil || end.StatusCode() != http.StatusNoContent {
		t.Fatalf("endSession: %v %v", err, end)
	}
	for i, want := range []int{http.StatusUnauthorized, http.StatusOK} {
		r, err := c.GetMeWithResponse(ctx, nil, bearer(tokens[i]))
		if err != nil || r.StatusCode() != want {
			t.Errorf("getMe with login %d after the phone's session ended: %v %d, want %d", i, err, r.StatusCode(), want)
		}
	}
}

// bearer sends the access token with a request.
func bearer(token string) apiclient.RequestEditorFn {
	return func(_ context.Context, req *http.Request) error {
		req.Header.Set("Authorization", "Bearer "+token)
		return nil
	}
}

// service returns the service the tests run against and its bootstrap
// admin: API_BASE_URL, ADMIN_EMAIL and ADMIN_PASSWORD, which go test
// ./tests/clients in the repository sets when it starts the built service.
// The document's server is "/": its paths carry the base path. Without
// API_BASE_URL the test skips.
func service(t *testing.T) (base, adminEmail, adminPassword string) {
	t.Helper()
	base = os.Getenv("API_BASE_URL")
	if base == "" {
		t.Skip("API_BASE_URL is not set: go test ./tests/clients in the repository starts the service and runs these tests against it")
	}
	return base, os.Getenv("ADMIN_EMAIL"), os.Getenv("ADMIN_PASSWORD")
}
