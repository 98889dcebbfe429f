package workflow

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/asapjs/fiber-template/internal/testkit"
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
// kin-openapi, and that its list answers the paging envelope.
//
// It shares the build cache with the run that starts it, and runs only the
// generated test: the copy's other tests are this repository's own.
func TestStarterMakesAServiceOfItsOwn(t *testing.T) {
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
	if !strings.Contains(out, "renamed github.com/asapjs/fiber-template to github.com/acme/orders") {
		t.Fatalf("rename said:\n%s", out)
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
}

// serveAPI runs the service binary on SQLite and a free loopback port
// until t ends, and returns its base URL once it answers.
func serveAPI(t *testing.T, bin string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	work := t.TempDir()
	ctx, cancel := context.WithCancel(testkit.Context(t))
	cmd := exec.CommandContext(ctx, bin)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "HOST=127.0.0.1", fmt.Sprintf("PORT=%d", port), "BASE_PATH=/api",
		"DATABASE_URL=sqlite:"+filepath.Join(work, "app.db"), "JWT_SECRET=starter-test-secret-0123456789abcdef",
		"APP_ENV=development", "LOG_REQUESTS=false")
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("service log:\n%s", logs.String())
		}
	})
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	for {
		res, err := http.Get(base + "/health-check")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return base
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the service did not answer /health-check: %v\n%s", err, logs.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// fetchBody sends one request and returns the body of a 2xx answer.
func fetchBody(t *testing.T, method, url, token string, body any) []byte {
	t.Helper()
	var r io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		r = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, url, r)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res := testkit.Fetch(t, req)
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
		"listOrders": list.Get, "createOrder": list.Post, "getOrder": one.Get, "updateOrder": one.Put, "deleteOrder": one.Delete,
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
	for _, op := range []*openapi3.Operation{one.Get, one.Put, one.Delete} {
		if len(op.Parameters) != 1 || op.Parameters[0].Value.Name != "id" || op.Parameters[0].Value.In != "path" {
			t.Errorf("%s does not take the path parameter id", op.OperationID)
		}
	}
	for _, want := range []struct {
		op     *openapi3.Operation
		status int
	}{
		{list.Get, 200}, {list.Post, 201}, {one.Get, 200}, {one.Get, 404}, {one.Put, 200}, {one.Put, 404},
		{one.Delete, 204}, {one.Delete, 404}, {list.Post, 403}, {list.Get, 401},
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
