package integration

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asapjs/fiber-template/internal/testkit"
)

// Versions of the client generator and of the runtime its code imports.
const (
	oapiRuntimeVersion = "v1.8.0"
)

// generatedClientModule is the go.mod of the throwaway module the client
// is generated into.
const generatedClientModule = `module clientcheck

go 1.26

require github.com/oapi-codegen/runtime ` + oapiRuntimeVersion + `
`

// generatedClientMain signs up, logs in with the OAuth2 form and lists users
// with the bearer token, all through the generated client, and prints the
// size of the page it got.
const generatedClientMain = `package main

import (
	"context"
	"fmt"
	"net/http"
	"os"

	openapi_types "github.com/oapi-codegen/runtime/types"

	"clientcheck/client"
)

func main() {
	if err := run(os.Args[1], os.Args[2], os.Args[3]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(server, adminEmail, adminPassword string) error {
	ctx := context.Background()
	c, err := client.NewClientWithResponses(server)
	if err != nil {
		return err
	}
	const email, password = "generated@example.com", "generated-client-pass"
	created, err := c.CreateUserWithResponse(ctx, client.CreateUserRequest{
		Email: openapi_types.Email(email), Name: "Generated Client", Password: password})
	if err != nil {
		return err
	}
	if created.JSON201 == nil {
		return fmt.Errorf("createUser: status %d: %s", created.StatusCode(), created.Body)
	}
	// Listing users is for admins: log in as one, then refresh the
	// session as a client does when the access token expires.
	grant := client.LoginFormdataBodyGrantType("password")
	login, err := c.LoginWithFormdataBodyWithResponse(ctx, client.LoginFormdataRequestBody{
		GrantType: &grant, Username: adminEmail, Password: adminPassword})
	if err != nil {
		return err
	}
	if login.JSON200 == nil {
		return fmt.Errorf("login: status %d: %s", login.StatusCode(), login.Body)
	}
	refreshGrant := client.RefreshFormdataBodyGrantType("refresh_token")
	refreshed, err := c.RefreshWithFormdataBodyWithResponse(ctx, client.RefreshFormdataRequestBody{
		GrantType: &refreshGrant, RefreshToken: login.JSON200.RefreshToken})
	if err != nil {
		return err
	}
	if refreshed.JSON200 == nil || refreshed.JSON200.RefreshToken == login.JSON200.RefreshToken {
		return fmt.Errorf("refresh: status %d, want a new pair: %s", refreshed.StatusCode(), refreshed.Body)
	}
	bearer := func(_ context.Context, req *http.Request) error {
		req.Header.Set("Authorization", "Bearer "+refreshed.JSON200.AccessToken)
		return nil
	}
	role := client.ListUsersParamsRoleMember
	limit := int32(10)
	list, err := c.ListUsersWithResponse(ctx, &client.ListUsersParams{Role: &role, Limit: &limit}, bearer)
	if err != nil {
		return err
	}
	if list.JSON200 == nil {
		return fmt.Errorf("listUsers: status %d: %s", list.StatusCode(), list.Body)
	}
	fmt.Printf("listed %d of %d users, first %s\n", len(list.JSON200.Data), list.JSON200.TotalElements, list.JSON200.Data[0].Email)

	unauthorized, err := c.ListUsersWithResponse(ctx, nil)
	if err != nil {
		return err
	}
	if unauthorized.ApplicationproblemJSON401 == nil {
		return fmt.Errorf("listUsers without a token: status %d, want a 401 problem: %s", unauthorized.StatusCode(), unauthorized.Body)
	}
	fmt.Printf("without a token: %d %s\n", unauthorized.ApplicationproblemJSON401.Status, unauthorized.ApplicationproblemJSON401.Title)
	return nil
}
`

// TestGeneratedClient generates a Go client from the served spec with
// oapi-codegen, and runs it against the live service: the spec is only as
// good as the clients it makes.
func TestGeneratedClient(t *testing.T) {
	if testing.Short() {
		t.Skip("downloads and runs oapi-codegen and builds its client; skipped with -short")
	}
	t.Parallel()
	a := newUserAPI(t, "sqlite:"+filepath.Join(t.TempDir(), "app.db"))
	base := serve(t, a.r)

	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "client"), 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"spec.json": string(a.r.SpecJSON()),
		"go.mod":    generatedClientModule,
		"main.go":   generatedClientMain,
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// The throwaway module is not the repository's: no workspace, and
	// go.sum is written as its requirements are resolved.
	moduleEnv := []string{"GOWORK=off", "GOFLAGS=-mod=mod"}
	// The generator is the one pinned in go.tool.mod, as `task client` runs
	// it; the first use builds it, bound only by the test's deadline.
	generate := exec.CommandContext(testkit.Context(t), testkit.Tool(t, "oapi-codegen"),
		"-generate", "types,client", "-package", "client",
		"-o", filepath.Join(dir, "client", "client.gen.go"), filepath.Join(dir, "spec.json"))
	if out, err := generate.CombinedOutput(); err != nil {
		t.Fatalf("oapi-codegen: %v\n%s", err, out)
	}
	testkit.Go(t, dir, moduleEnv, "mod", "tidy")
	a.adminToken(t) // creates the admin the client logs in as
	out := testkit.Go(t, dir, moduleEnv, "run", ".", base, testAdminEmail, testAdminPassword)

	for _, want := range []string{"listed 1 of 1 users, first generated@example.com", "without a token: 401 Unauthorized"} {
		if !strings.Contains(out, want) {
			t.Errorf("the generated client printed %q, want it to contain %q", out, want)
		}
	}
}
