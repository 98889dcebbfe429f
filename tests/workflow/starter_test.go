package workflow

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"golang.org/x/mod/modfile"

	"github.com/asapjs/fiber-template/internal/testkit"

	"github.com/asapjs/fiber-template/platform/servicetest"
)

// starterFields are the fields of the generated resource: every type, each
// required and optional.
var starterFields = []string{
	"customer:string", "note:text?", "qty:int", "amount_cents:int64", "weight:float64?",
	"paid:bool", "gift:bool?", "due_at:time", "paid_at:time?", "ref:uuid", "alt_ref:uuid?",
	"status:enum(pending,paid,shipped)", "channel:enum(web,shop)?",
}

// TestStarterMakesAServiceOfItsOwn does what the README's "Start a new
// service" section says, in a copy of the repository: rename the module,
// generate a resource with a field of every type, vet everything, and run
// the generated integration test on PostgreSQL and SQLite. Then it serves
// the renamed service and checks the resource in the served spec with
// kin-openapi, and that its list answers the paging envelope. Then it
// adds the field tracking_code:string? with field: the generated test
// passes again on both databases and the rebuilt service has the field on
// create, PATCH and the list's search. Last, it removes the resource:
// app/app.go is as rename left it, and everything still vets.
//
// It shares the build cache with the run that starts it, and runs only the
// generated test: the copy's other tests are this repository's own.
func TestStarterMakesAServiceOfItsOwn(t *testing.T) {
	onlyInTheTemplate(t)
	if testing.Short() {
		t.Skip("builds and tests a generated service; skipped with -short")
	}
	t.Parallel()
	dir := copyWorkTree(t)
	start := time.Now()
	step := func(what string) {
		t.Logf("%s: %s", what, time.Since(start).Round(time.Millisecond))
		start = time.Now()
	}

	out := testkit.Go(t, dir, nil, "run", "./cmd/starter", "rename", "github.com/acme/orders")
	if want := "renamed " + templateModule(t) + " to github.com/acme/orders"; !strings.Contains(out, want) {
		t.Fatalf("rename said:\n%s\nwant %q", out, want)
	}
	renamedApp, err := os.ReadFile(filepath.Join(dir, "app", "app.go"))
	if err != nil {
		t.Fatal(err)
	}
	testkit.Go(t, dir, nil, append([]string{"run", "./cmd/starter", "resource", "orders"}, starterFields...)...)
	if data, err := os.ReadFile(filepath.Join(dir, "go.mod")); err != nil || !bytes.HasPrefix(data, []byte("module github.com/acme/orders\n")) {
		t.Fatalf("go.mod after rename: %v\n%s", err, data)
	}
	step("rename and resource")
	testkit.Go(t, dir, nil, "vet", "./...")
	step("go vet ./...")
	// -v shows which backends ran: a PostgreSQL that is missing skips its
	// half (and fails it under CI), which must not pass unseen.
	out = testkit.Go(t, dir, nil, "test", "-count=1", "-v", "-run", "^TestOrdersResource$", "./tests/integration")
	for _, backend := range []string{"on_PostgreSQL", "on_SQLite"} {
		if !strings.Contains(out, "--- PASS: TestOrdersResource/"+backend+" ") {
			t.Errorf("the generated test did not pass on %s:\n%s", backend, out)
		}
	}

	step("the generated test")
	bin := filepath.Join(t.TempDir(), "api")
	testkit.Go(t, dir, nil, "build", "-o", bin, "./cmd/api")
	base := serveAPI(t, bin)
	checkOrdersSpec(t, fetchBody(t, http.MethodGet, base+"/api/docs/spec.json", "", nil))
	checkOrdersList(t, base)
	step("build, serve and check")
	checkOrdersClients(t, dir, base)
	step("the clients walk the orders")

	out = testkit.Go(t, dir, nil, "run", "./cmd/starter", "field", "orders", "tracking_code:string?")
	if !strings.Contains(out, "added tracking_code to orders") {
		t.Errorf("field said:\n%s", out)
	}
	step("field orders tracking_code:string?")
	out = testkit.Go(t, dir, nil, "test", "-count=1", "-v", "-run", "^TestOrdersResource$", "./tests/integration")
	for _, backend := range []string{"on_PostgreSQL", "on_SQLite"} {
		if !strings.Contains(out, "--- PASS: TestOrdersResource/"+backend+" ") {
			t.Errorf("the generated test did not pass on %s after field:\n%s", backend, out)
		}
	}
	step("the generated test with the field")
	testkit.Go(t, dir, nil, "build", "-o", bin, "./cmd/api")
	checkTrackingCode(t, serveAPI(t, bin))
	step("build, serve and check the field")

	testkit.Go(t, dir, nil, "run", "./cmd/starter", "remove", "orders")
	if data, err := os.ReadFile(filepath.Join(dir, "app", "app.go")); err != nil || !bytes.Equal(data, renamedApp) {
		t.Errorf("app/app.go after remove orders is not as rename left it (%v):\n%s", err, data)
	}
	testkit.Go(t, dir, nil, "vet", "./...")
	step("remove and go vet ./...")
}

// TestRenameLeavesNoTemplateName renames a copy of the repository and
// reads every text file of it: none names the template, dashed or in
// words, but the starter's own (cmd/starter) and the README's lines that
// link to the template's repository. The docs title, the token issuer and
// audience, and the Compose and Kubernetes names are the new project's.
func TestRenameLeavesNoTemplateName(t *testing.T) {
	onlyInTheTemplate(t)
	t.Parallel()
	dir := copyWorkTree(t)
	upstream := templateModule(t)
	testkit.Go(t, dir, nil, "run", "./cmd/starter", "rename", "github.com/acme/orders", "--title", "Acme Orders")

	template := regexp.MustCompile(`(?i)fiber[-_ ]template`)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if strings.HasPrefix(rel, "cmd/starter/") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil || bytes.IndexByte(data, 0) >= 0 {
			return err // a binary, such as a build left in the work tree, is no text to read
		}
		for i, line := range strings.Split(string(data), "\n") {
			// A line that links to the template's repository names it.
			if template.MatchString(line) && !strings.Contains(line, "https://"+upstream) {
				t.Errorf("%s:%d still names the template: %s", rel, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	for _, want := range []struct{ file, pattern string }{
		{"cmd/api/serve.go", `\bName:\s+"Acme Orders",`},
		{"cmd/api/serve.go", `\bDescription:\s+"Acme Orders: `},
		{"app/app.go", `\bDefaultIssuer\s+= "orders"\n`},
		{"app/app.go", `\bDefaultAudience\s+= "orders-api"\n`},
		{"docker-compose.yml", `(?m)^name: orders$`},
		{"deploy/kubernetes/overlays/production/kustomization.yaml", `(?m)^namespace: orders$`},
		{"deploy/kubernetes/overlays/production/kustomization.yaml", `newName: registry\.example\.com/orders\b`},
		{"README.md", `(?m)^# orders$`},
		{"README.md", regexp.QuoteMeta("The Go module `github.com/acme/orders`")},
		{"README.md", `(?m)^go test \./\.\.\. `},
		{"README.md", regexp.QuoteMeta("[the template's docs](https://" + upstream + "/tree/main/docs)")},
	} {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(want.file)))
		if err != nil {
			t.Error(err)
			continue
		}
		if !regexp.MustCompile(want.pattern).Match(data) {
			t.Errorf("%s does not match %s after the rename", want.file, want.pattern)
		}
	}
}

// templateModule returns the module path of the template as the starter
// names it (its upstreamModule, in cmd/starter/upstream.go, which rename
// leaves alone), or "" when the repository has no starter.
func templateModule(t *testing.T) string {
	t.Helper()
	name := filepath.Join(testkit.RepoRoot(t), "cmd", "starter", "upstream.go")
	if _, err := os.Stat(name); err != nil {
		return ""
	}
	f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, s := range gd.Specs {
			vs := s.(*ast.ValueSpec)
			for i, n := range vs.Names {
				if n.Name != "upstreamModule" || i >= len(vs.Values) {
					continue
				}
				if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					if v, err := strconv.Unquote(lit.Value); err == nil {
						return v
					}
				}
			}
		}
	}
	t.Fatalf("%s declares no string const upstreamModule", name)
	return ""
}

// generatedMarker is the marker line of a file the starter's resource
// command wrote.
var generatedMarker = regexp.MustCompile(`(?m)^//starter:resource ([a-z][a-z0-9_]*) `)

// onlyInTheTemplate skips t, by design, unless the repository is still the
// template: a test of the starter on the template itself (renaming the
// template's module, generating the README's orders) has nothing to test
// in a service made from it, whose module is its own and whose resources
// may be named so already.
func onlyInTheTemplate(t *testing.T) {
	t.Helper()
	root := testkit.RepoRoot(t)
	upstream := templateModule(t)
	if upstream == "" {
		testkit.Skip(t, "tests the template's starter, and this repository has none (cmd/starter/upstream.go): skipped by design")
	}
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if mod := modfile.ModulePath(data); mod != upstream {
		testkit.Skip(t, fmt.Sprintf("tests the starter on the template itself; this repository is %s now, not the template %s: skipped by design", mod, upstream))
	}
	models, _ := filepath.Glob(filepath.Join(root, "app", "models", "*.go"))
	for _, m := range models {
		data, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		if g := generatedMarker.FindSubmatch(data); g != nil {
			testkit.Skip(t, fmt.Sprintf("tests the starter on the template itself; this repository has a generated resource (%s) and is the template no more: skipped by design", g[1]))
		}
	}
}

// serveAPI runs the service binary on SQLite, with a bootstrap admin, on
// a free loopback port until t ends, and returns its base URL once it
// answers.
func serveAPI(t *testing.T, bin string) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "app.db")
	return testkit.ServeBinary(t, bin, "BASE_PATH=/api", "DATABASE_URL=sqlite:"+db,
		"JWT_SECRET=starter-test-secret-0123456789abcdef", "APP_ENV=development", "LOG_REQUESTS=false",
		"ADMIN_EMAIL="+starterAdminEmail, "ADMIN_PASSWORD="+starterAdminPassword)
}

// The bootstrap admin of the service serveAPI starts.
const starterAdminEmail, starterAdminPassword = "admin@example.com", "starter-admin-0123"

// fetchBody sends one request and returns the body of a 2xx answer.
func fetchBody(t *testing.T, method, url, token string, body any) []byte {
	t.Helper()
	res := call(t, method, url, token, body)
	if res.Status/100 != 2 {
		t.Fatalf("%s %s: status %d; body %s", method, url, res.Status, res.Body)
	}
	return res.Body
}

// checkOrdersSpec checks the served document: valid for kin-openapi, with
// the five orders operations, the list's paging and filter parameters, the
// enum values, and the fields of the order in its schemas.
func checkOrdersSpec(t *testing.T, spec []byte) {
	t.Helper()
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(spec)
	if err != nil {
		t.Fatalf("load the served spec: %v", err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		t.Fatalf("the served spec is not valid OpenAPI: %v", err)
	}
	list, one := doc.Paths.Value("/api/orders"), doc.Paths.Value("/api/orders/{id}")
	if list == nil || one == nil {
		t.Fatalf("the spec has no /api/orders or /api/orders/{id}; paths %v", doc.Paths.InMatchingOrder())
	}
	ops := map[string]*openapi3.Operation{
		"listOrders": list.Get, "createOrder": list.Post, "getOrder": one.Get, "updateOrder": one.Put, "patchOrder": one.Patch, "deleteOrder": one.Delete,
	}
	for id, op := range ops {
		switch {
		case op == nil:
			t.Errorf("no operation %s", id)
		case op.OperationID != id:
			t.Errorf("operation %s has id %q", id, op.OperationID)
		case !secured(doc, op):
			t.Errorf("operation %s documents no security requirement", id)
		}
	}
	if t.Failed() {
		return
	}

	params := map[string]*openapi3.Parameter{}
	for _, p := range list.Get.Parameters {
		params[p.Value.Name] = p.Value
	}
	for _, name := range []string{"page", "limit", "cursor", "q", "paid", "gift", "status", "channel"} {
		if p := params[name]; p == nil || p.In != "query" {
			t.Errorf("listOrders has no query parameter %s", name)
		}
	}
	if p := params["status"]; p != nil && !sameValues(p.Schema.Value.Enum, "pending", "paid", "shipped") {
		t.Errorf("status enum %v, want pending, paid, shipped", p.Schema.Value.Enum)
	}
	// The path parameter id, and the header of each conditional or
	// idempotent request.
	for op, header := range map[*openapi3.Operation]string{
		one.Get: "If-None-Match", one.Put: "If-Match", one.Patch: "If-Match", one.Delete: "If-Match", list.Post: "Idempotency-Key",
	} {
		var got []string
		for _, p := range op.Parameters {
			got = append(got, p.Value.In+" "+p.Value.Name)
		}
		want := []string{"path id", "header " + header}
		if op == list.Post {
			want = want[1:]
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s takes %v, want %v", op.OperationID, got, want)
		}
	}
	for _, want := range []struct {
		op     *openapi3.Operation
		status int
	}{
		{list.Get, 200}, {list.Post, 201}, {one.Get, 200}, {one.Get, 404}, {one.Put, 200}, {one.Put, 404},
		{one.Delete, 204}, {one.Delete, 404}, {list.Post, 403}, {list.Get, 401},
		{one.Get, 304}, {one.Put, 412}, {one.Patch, 200}, {one.Patch, 412}, {one.Patch, 422}, {one.Delete, 412},
		{list.Post, 409}, {list.Post, 422},
	} {
		if want.op.Responses.Status(want.status) == nil {
			t.Errorf("%s documents no %d answer", want.op.OperationID, want.status)
		}
	}

	page := schemaOf(t, list.Get.Responses.Status(200).Value.Content)
	for _, key := range []string{"data", "next_cursor", "total_exact", "has_next", "total_elements"} {
		if page.Properties[key] == nil {
			t.Errorf("the list's answer has no %s", key)
		}
	}
	fields := []string{"customer", "note", "qty", "amount_cents", "weight", "paid", "gift", "due_at", "paid_at", "ref", "alt_ref", "status", "channel"}
	required := []string{"customer", "qty", "amount_cents", "paid", "due_at", "ref", "status"}
	if data := page.Properties["data"]; data != nil && data.Value.Items != nil {
		order := data.Value.Items.Value
		for _, f := range append(fields, "id", "created_at") {
			if order.Properties[f] == nil {
				t.Errorf("an order in the list has no %s", f)
			}
		}
		if s := order.Properties["ref"]; s != nil && s.Value.Format != "uuid" {
			t.Errorf("ref has format %q, want uuid", s.Value.Format)
		}
		if s := order.Properties["due_at"]; s != nil && s.Value.Format != "date-time" {
			t.Errorf("due_at has format %q, want date-time", s.Value.Format)
		}
	}
	for _, op := range []*openapi3.Operation{list.Post, one.Put} {
		body := schemaOf(t, op.RequestBody.Value.Content)
		for _, f := range fields {
			if body.Properties[f] == nil {
				t.Errorf("the body of %s has no %s", op.OperationID, f)
			}
		}
		if !sameValues(toAny(body.Required), toAny(required)...) {
			t.Errorf("the body of %s requires %v, want %v", op.OperationID, body.Required, required)
		}
		if s := body.Properties["channel"]; s != nil && !sameValues(s.Value.Enum, "web", "shop") {
			t.Errorf("channel enum %v, want web, shop", s.Value.Enum)
		}
	}
	// The patch: every field, none required, null only for the optional.
	mt := one.Patch.RequestBody.Value.Content.Get("application/merge-patch+json")
	if mt == nil || len(one.Patch.RequestBody.Value.Content) != 1 {
		t.Fatalf("patchOrder takes %v, want only application/merge-patch+json", one.Patch.RequestBody.Value.Content)
	}
	patch := mt.Schema.Value
	for _, f := range fields {
		if p := patch.Properties[f]; p == nil || p.Value.Nullable == slices.Contains(required, f) {
			t.Errorf("the patch of an order has %s %+v; want it, nullable only when optional", f, p)
		}
	}
	if len(patch.Required) != 0 {
		t.Errorf("the patch of an order requires %v, want nothing", patch.Required)
	}
}

// checkOrdersList signs up, logs in and lists the orders of the served
// service: a 200 with the paging envelope.
func checkOrdersList(t *testing.T, base string) {
	t.Helper()
	const email, password = "starter@example.com", "starter-pass-0123"
	fetchBody(t, http.MethodPost, base+"/api/users", "", map[string]any{"email": email, "name": "Starter", "password": password})
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.Unmarshal(fetchBody(t, http.MethodPost, base+"/api/auth/login", "", map[string]string{"username": email, "password": password}), &tok); err != nil {
		t.Fatal(err)
	}
	var page map[string]any
	if err := json.Unmarshal(fetchBody(t, http.MethodGet, base+"/api/orders?limit=5", tok.AccessToken, nil), &page); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"data", "page", "page_size", "max_page", "has_prev", "has_next", "total_elements", "total_exact"} {
		if _, ok := page[key]; !ok {
			t.Errorf("GET /api/orders answered %v, without %s", page, key)
		}
	}
}

// ordersWalkTest is a test of the generated Go client, written into the
// renamed copy's clients/go: it creates twelve orders as the bootstrap
// admin and walks them five a page with ListOrdersAll, which the starter
// generated with the resource. service, which reads where the service
// runs from the environment, comes from the client's own tests.
const ordersWalkTest = `package apiclient_test

import (
	"bytes"
	"context"
	"net/http"
	"testing"

	"github.com/acme/orders/clients/go/apiclient"
)

func TestListOrdersAll(t *testing.T) {
	base, adminEmail, adminPassword := service(t)
	ctx := context.Background()
	c, err := apiclient.NewClientWithResponses(base)
	if err != nil {
		t.Fatal(err)
	}
	grant := apiclient.LoginRequestGrantType("password")
	login, err := c.LoginWithResponse(ctx, apiclient.LoginRequest{GrantType: &grant, Username: adminEmail, Password: adminPassword})
	if err != nil || login.JSON200 == nil {
		t.Fatalf("login: %v %v", err, login)
	}
	bearer := func(_ context.Context, req *http.Request) error {
		req.Header.Set("Authorization", "Bearer "+login.JSON200.AccessToken)
		return nil
	}
	body := []byte(` + "`" + `{"customer":"Walker","qty":3,"amount_cents":1250,"paid":true,"due_at":"2024-05-01T12:00:00Z","ref":"0b9e8a3c-6f2d-4d1e-9c4b-2a7f1e5d3c90","status":"pending"}` + "`" + `)
	for range 12 {
		r, err := c.CreateOrderWithBodyWithResponse(ctx, nil, "application/json", bytes.NewReader(body), bearer)
		if err != nil || r.JSON201 == nil {
			t.Fatalf("create an order: %v %s", err, r.Body)
		}
	}
	limit := int32(5)
	ids := map[int64]bool{}
	for o, err := range c.ListOrdersAll(ctx, &apiclient.ListOrdersParams{Limit: &limit}, bearer) {
		if err != nil {
			t.Fatal(err)
		}
		ids[int64(o.Id)] = true
	}
	if len(ids) != 12 {
		t.Errorf("walked %d orders, want 12", len(ids))
	}
}
`

// checkTrackingCode checks the field tracking_code:string? that field
// added to orders, over HTTP: the served document has it, a create keeps
// it, a merge patch with null removes it, and the list's q finds an order
// by it.
func checkTrackingCode(t *testing.T, base string) {
	t.Helper()
	if spec := fetchBody(t, http.MethodGet, base+"/api/docs/spec.json", "", nil); !bytes.Contains(spec, []byte(`"tracking_code"`)) {
		t.Error("the served document does not name tracking_code")
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	login := map[string]string{"username": starterAdminEmail, "password": starterAdminPassword}
	if err := json.Unmarshal(fetchBody(t, http.MethodPost, base+"/api/auth/login", "", login), &tok); err != nil {
		t.Fatal(err)
	}
	order := func(code string) map[string]any {
		return map[string]any{
			"customer": "Ann", "qty": 1, "amount_cents": 1250, "paid": true, "due_at": "2024-05-01T12:00:00Z",
			"ref": "0b9e8a3c-6f2d-4d1e-9c4b-2a7f1e5d3c90", "status": "pending", "tracking_code": code,
		}
	}
	decode := func(b []byte) map[string]any {
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%v: %s", err, b)
		}
		return m
	}
	first := decode(fetchBody(t, http.MethodPost, base+"/api/orders", tok.AccessToken, order("TRK-0001")))
	if first["tracking_code"] != "TRK-0001" {
		t.Errorf("POST /api/orders with tracking_code answered %v", first)
	}
	second := decode(fetchBody(t, http.MethodPost, base+"/api/orders", tok.AccessToken, order("ZX-42")))

	req, err := http.NewRequest(http.MethodPatch, fmt.Sprintf("%s/api/orders/%v", base, first["id"]), strings.NewReader(`{"tracking_code":null}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/merge-patch+json")
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	res := servicetest.Fetch(t, req)
	if patched := decode(res.Body); res.Status != http.StatusOK || patched["tracking_code"] != nil || patched["customer"] != "Ann" {
		t.Errorf("PATCH with tracking_code null: %d %v, want 200 without tracking_code", res.Status, patched)
	}

	var page struct {
		Data []map[string]any `json:"data"`
	}
	if err := json.Unmarshal(fetchBody(t, http.MethodGet, base+"/api/orders?q=zx-42", tok.AccessToken, nil), &page); err != nil {
		t.Fatal(err)
	}
	if len(page.Data) != 1 || page.Data[0]["id"] != second["id"] || page.Data[0]["tracking_code"] != "ZX-42" {
		t.Errorf("GET /api/orders?q=zx-42 answered %v, want the order with that tracking code alone", page.Data)
	}
}

// checkOrdersClients checks the clients the starter wrote again with the
// orders resource in the renamed copy dir: the Go client has an iterator of
// the new list, compiles, and walks it page by page against the copy's
// service; the TypeScript client's types name the new paths and
// type-check (with Node.js).
func checkOrdersClients(t *testing.T, dir, base string) {
	t.Helper()
	goClient := filepath.Join(dir, "clients", "go")
	walk := filepath.Join(goClient, "apiclient", "orders_walk_test.go")
	if err := os.WriteFile(walk, []byte(ordersWalkTest), 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(walk)
	env := []string{"API_BASE_URL=" + base, "ADMIN_EMAIL=" + starterAdminEmail, "ADMIN_PASSWORD=" + starterAdminPassword}
	out := testkit.Go(t, goClient, env, "test", "-count=1", "-v", "-run", "^TestListOrdersAll$", "./apiclient")
	if !strings.Contains(out, "--- PASS: TestListOrdersAll") {
		t.Errorf("the Go client did not walk the orders:\n%s", out)
	}
	t.Run("TypeScript", func(t *testing.T) {
		_, npm := testkit.Node(t, "to type-check the TypeScript client")
		ts := filepath.Join(dir, "clients", "ts")
		for name, want := range map[string]string{"schema.d.ts": `"/api/orders"`, "pagination.gen.js": `"/api/orders"`} {
			b, err := os.ReadFile(filepath.Join(ts, "src", name))
			if err != nil || !bytes.Contains(b, []byte(want)) {
				t.Errorf("clients/ts/src/%s does not name %s (%v)", name, want, err)
			}
		}
		cmd := exec.CommandContext(testkit.Context(t), npm, "run", "typecheck")
		cmd.Dir = ts
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("the TypeScript client does not type-check: %v\n%s", err, b)
		}
	})
}

// secured reports whether op requires a token: its own security
// requirements, or the document's when it has none of its own.
func secured(doc *openapi3.T, op *openapi3.Operation) bool {
	reqs := doc.Security
	if op.Security != nil {
		reqs = *op.Security
	}
	for _, r := range reqs {
		if len(r) > 0 {
			return true
		}
	}
	return false
}

// schemaOf returns the JSON schema of a content map.
func schemaOf(t *testing.T, content openapi3.Content) *openapi3.Schema {
	t.Helper()
	mt := content.Get("application/json")
	if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
		t.Fatalf("no application/json schema in %v", content)
	}
	return mt.Schema.Value
}

// sameValues reports whether got holds exactly the values, in any order.
func sameValues(got []any, want ...any) bool {
	if len(got) != len(want) {
		return false
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			return false
		}
	}
	return true
}

func toAny(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}
