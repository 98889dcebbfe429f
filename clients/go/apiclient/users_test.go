package apiclient_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	openapi_types "github.com/oapi-codegen/runtime/types"

	"github.com/asapjs/fiber-template/clients/go/apiclient"
)

const (
	adminEmail    = "admin@example.com"
	adminPassword = "client-admin-password"
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
	base := serve(t)
	ctx := context.Background()
	doer := &countingDoer{}
	c, err := apiclient.NewClientWithResponses(base, apiclient.WithHTTPClient(doer))
	if err != nil {
		t.Fatal(err)
	}
	const users = 35
	want := map[string]bool{adminEmail: true}
	for i := range users {
		email := fmt.Sprintf("walker%02d@example.com", i)
		r, err := c.CreateUserWithResponse(ctx, apiclient.CreateUserRequest{
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
	bearer := func(_ context.Context, req *http.Request) error {
		req.Header.Set("Authorization", "Bearer "+login.JSON200.AccessToken)
		return nil
	}

	limit := int32(10)
	before := doer.n.Load()
	seen := map[string]int{}
	ids := map[int64]bool{}
	for u, err := range c.ListUsersAll(ctx, &apiclient.ListUsersParams{Limit: &limit}, bearer) {
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
	base := serve(t)
	ctx := context.Background()
	c, err := apiclient.NewClientWithResponses(base)
	if err != nil {
		t.Fatal(err)
	}
	const email = "generated@example.com"
	created, err := c.CreateUserWithResponse(ctx, apiclient.CreateUserRequest{
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
	bearer := func(_ context.Context, req *http.Request) error {
		req.Header.Set("Authorization", "Bearer "+refreshed.JSON200.AccessToken)
		return nil
	}
	role := apiclient.ListUsersParamsRoleMember
	list, err := c.ListUsersWithResponse(ctx, &apiclient.ListUsersParams{Role: &role}, bearer)
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

// serve builds the service from this repository, starts it on SQLite with
// a bootstrap admin, and returns its address once /livez answers: the
// document's server is "/", its paths carry the base path.
func serve(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "api")
	build := exec.Command("go", "build", "-o", bin, "./cmd/api")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/api: %v\n%s", err, out)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(bin)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"HOST=127.0.0.1", "PORT="+strconv.Itoa(port),
		"DATABASE_URL=sqlite:"+filepath.Join(dir, "api.db"),
		"JWT_SECRET=client-test-secret-of-at-least-32-bytes",
		"ADMIN_EMAIL="+adminEmail, "ADMIN_PASSWORD="+adminPassword,
		"AUTH_RATE_LIMIT=0", "LOG_LEVEL=warn")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	deadline := time.Now().Add(30 * time.Second)
	for {
		r, err := http.Get(base + "/livez")
		if err == nil {
			r.Body.Close()
			if r.StatusCode == http.StatusOK {
				return base
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the service did not answer /livez within 30s: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
