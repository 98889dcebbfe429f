package integration

import (
	"bytes"
	"encoding/json"
	"io"
	"io/fs"
	"maps"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asapjs/fiber-template/app"
	"github.com/asapjs/fiber-template/internal/testkit"
	"github.com/asapjs/fiber-template/platform/problem"
	"github.com/asapjs/fiber-template/platform/router"
	"github.com/asapjs/fiber-template/platform/servicetest"
	"github.com/asapjs/fiber-template/tests/integration/pgtest"
)

// walkStep is one error the walk provokes: the request, sent times times
// (the earlier ones fill a throttle), and what its last answer must be.
type walkStep struct {
	name   string
	method string
	path   string
	header map[string]string
	body   string
	times  int
	// status and code are the answer's; code is "" for an error that is
	// not declared (an about:blank problem).
	status int
	code   string
	// fields are those a field error names; headers those the answer
	// must carry besides the problem's.
	fields  []string
	headers []string
}

// TestEveryErrorComesFromTheOnePipeline walks every kind of error the
// running service answers, over real connections to the service as
// cmd/api builds it, and checks that each is the same problem details
// document written the same way: the members of problem.Problem in their
// order, a declared error's code and type, an undeclared one as
// about:blank with its status text. A problem written anywhere but the
// router's error handler shows as another shape, member or encoding here.
func TestEveryErrorComesFromTheOnePipeline(t *testing.T) {
	t.Parallel()
	db := newCuttableDatabase(t, pgtest.NewDatabase(t))
	walk := router.Group{Path: "/walk", Name: "Walk", Declared: []router.Route{
		router.Get("/panic", func(*router.Ctx, *struct{}) (*struct{}, error) { panic("walk-internal-secret") }),
		router.Get("/slow", func(c *router.Ctx, _ *struct{}) (*struct{}, error) {
			<-c.Context().Done()
			return nil, c.Context().Err()
		}),
	}}
	a := newThrottleAPI(t, openDB(t, db.dsn), router.Config{
		APIDocs:        router.APIDocs{UseAuth: true, Users: map[string]string{"dev": "docs-pass-1"}},
		RequestTimeout: time.Second,
		BodyLimit:      1 << 10,
		TrustedProxies: []string{"127.0.0.1"},
		Controllers:    []router.Controller{walk},
	}, app.Options{AuthRateLimit: 8})
	base := serve(t, a.r)
	token := a.newUserToken(t, "walker@example.com")
	bearer := map[string]string{"Authorization": "Bearer " + token}
	// Each throttled client is its own address, forwarded by the trusted
	// loopback proxy.
	from := func(addr string, header map[string]string) map[string]string {
		h := map[string]string{"X-Forwarded-For": addr, "Content-Type": "application/json"}
		maps.Copy(h, header)
		return h
	}
	wrongDocs := map[string]string{"Authorization": "Basic " + basicAuth("dev", "guess")}

	steps := []walkStep{
		{name: "a declared error of a handler", method: http.MethodGet, path: "/api/users/987654", header: bearer,
			status: http.StatusNotFound, code: "user_not_found"},
		{name: "the binder: a malformed path parameter", method: http.MethodGet, path: "/api/users/abc", header: bearer,
			status: http.StatusBadRequest, fields: []string{"id"}},
		{name: "the binder: a malformed query parameter", method: http.MethodGet, path: "/api/users?limit=many", header: bearer,
			status: http.StatusBadRequest, fields: []string{"limit"}},
		{name: "the binder: broken rules", method: http.MethodPost, path: "/api/users",
			header: from("203.0.113.10", nil), body: `{"email":"not-an-email","name":"Walker","password":"walk-pass-123"}`,
			status: http.StatusUnprocessableEntity, fields: []string{"email"}},
		{name: "a controller's field error", method: http.MethodPost, path: "/api/users",
			header: from("203.0.113.11", nil), body: `{"email":"walker2@example.com","name":"Walker","password":"` + strings.Repeat("é", 40) + `"}`,
			status: http.StatusUnprocessableEntity, fields: []string{"password"}},
		{name: "the router's authentication", method: http.MethodGet, path: "/api/users",
			status: http.StatusUnauthorized, code: "unauthorized", headers: []string{"WWW-Authenticate"}},
		{name: "the docs guard", method: http.MethodGet, path: "/api/docs/spec.json", header: from("203.0.113.20", nil),
			status: http.StatusUnauthorized, code: "unauthorized", headers: []string{"WWW-Authenticate"}},
		{name: "the docs guard's throttle", method: http.MethodGet, path: "/api/docs/spec.json", header: from("203.0.113.21", wrongDocs),
			times: 11, status: http.StatusTooManyRequests, code: "too_many_requests", headers: []string{"Retry-After", "RateLimit-Reset"}},
		{name: "the login throttle", method: http.MethodPost, path: "/api/auth/login", header: from("203.0.113.30", nil),
			body:  `{"username":"walker@example.com","password":"wrong-pass-99"}`,
			times: 6, status: http.StatusTooManyRequests, code: "too_many_requests", headers: []string{"Retry-After"}},
		{name: "the auth routes' rate limit", method: http.MethodPost, path: "/api/auth/refresh", header: from("203.0.113.40", nil),
			body: `{"refresh_token":"walk"}`, times: 9, status: http.StatusTooManyRequests, code: "too_many_requests", headers: []string{"Retry-After"}},
		{name: "no route", method: http.MethodGet, path: "/api/no-such-route", status: http.StatusNotFound},
		{name: "a method HTTP does not define", method: "get", path: "/api/users", status: http.StatusNotImplemented},
		{name: "a method the route does not take", method: http.MethodDelete, path: "/api/auth/login", status: http.StatusMethodNotAllowed},
		{name: "a body over the limit", method: http.MethodPost, path: "/api/users", header: from("203.0.113.50", nil),
			body: `{"name":"` + strings.Repeat("x", 2<<10) + `"}`, status: http.StatusRequestEntityTooLarge},
		{name: "a body in a media type the route does not take", method: http.MethodPost, path: "/api/users",
			header: map[string]string{"Content-Type": "text/plain", "X-Forwarded-For": "203.0.113.51"}, body: "walk",
			status: http.StatusUnsupportedMediaType},
		{name: "headers over the read buffer", method: http.MethodGet, path: "/api/users",
			header: map[string]string{"X-Walk": strings.Repeat("h", 10<<10)}, status: http.StatusRequestHeaderFieldsTooLarge, code: "headers_too_large"},
		{name: "a request out of time", method: http.MethodGet, path: "/api/walk/slow",
			status: http.StatusServiceUnavailable, code: "request_timeout", headers: []string{"Retry-After"}},
		{name: "a panic", method: http.MethodGet, path: "/api/walk/panic", status: http.StatusInternalServerError},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			wantPipeline(t, walkSend(t, base, s), s)
		})
	}
	t.Run("a database that went away", func(t *testing.T) {
		db.cut()
		s := walkStep{method: http.MethodGet, path: "/api/users", header: bearer,
			status: http.StatusServiceUnavailable, code: "service_unavailable", headers: []string{"Retry-After"}}
		wantPipeline(t, walkSend(t, base, s), s)
	})
}

// walkSend sends s.times times (once when 0) and returns the last answer.
func walkSend(t *testing.T, base string, s walkStep) response {
	t.Helper()
	var res servicetest.Response
	for range max(s.times, 1) {
		req, err := http.NewRequestWithContext(t.Context(), s.method, base+s.path, strings.NewReader(s.body))
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range s.header {
			req.Header.Set(k, v)
		}
		res = servicetest.Fetch(t, req)
	}
	return response{status: res.Status, header: res.Header, body: res.Body}
}

// problemMembers are the JSON members of problem.Problem: a member added
// there is one every problem may carry.
func problemMembers() []string {
	var names []string
	for f := range reflect.TypeFor[problem.Problem]().Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		names = append(names, name)
	}
	return names
}

// wantPipeline checks that res is the answer of s as the error handler
// writes it.
func wantPipeline(t *testing.T, res response, s walkStep) {
	t.Helper()
	p := res.wantProblem(t, s.status)
	res.wantHidden(t, "walk-internal-secret", "goroutine", ".go:")
	var members map[string]json.RawMessage
	if err := json.Unmarshal(res.body, &members); err != nil {
		t.Fatal(err)
	}
	known := problemMembers()
	for m := range members {
		if !slices.Contains(known, m) {
			t.Errorf("member %q is not a problem's; body %s", m, res.body)
		}
	}
	canonical, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(bytes.TrimSpace(res.body), canonical) {
		t.Errorf("body %s is not written as the error handler writes %s", res.body, canonical)
	}
	if s.code != "" {
		if p.Code != s.code || p.Type != problem.TypeURI(s.code) {
			t.Errorf("code %q and type %q, want the declared %q; body %s", p.Code, p.Type, s.code, res.body)
		}
	} else if _, ok := members["code"]; ok || p.Type != "about:blank" || p.Title != http.StatusText(s.status) {
		t.Errorf("want an about:blank problem titled %q without a code; body %s", http.StatusText(s.status), res.body)
	}
	var named []string
	for _, e := range p.Errors {
		if e.Message == "" {
			t.Errorf("field %q without a message", e.Field)
		}
		named = append(named, e.Field)
	}
	if !slices.Equal(named, s.fields) {
		t.Errorf("fields %v, want %v; body %s", named, s.fields, res.body)
	}
	for _, h := range append([]string{"X-Request-Id"}, s.headers...) {
		if res.header.Get(h) == "" {
			t.Errorf("no %s; headers %v", h, res.header)
		}
	}
}

// TestOnlyTheErrorHandlerWritesProblems: the service's code names the
// problem media type only where the error handler writes every problem
// (platform/router/errors.go), where it is defined and documented, and in
// the connection limiter's refusal, which is written before any request is
// read. A problem written anywhere else would escape the pipeline the walk
// above checks, and a change of how every problem looks.
func TestOnlyTheErrorHandlerWritesProblems(t *testing.T) {
	t.Parallel()
	root := testkit.RepoRoot(t)
	allowed := []string{
		"platform/router/errors.go",
		"platform/problem/problem.go",
		"platform/connlimit/listener.go",
		"platform/openapi/responses.go",
		// The test helpers read problems (WantProblem); they write none.
		"platform/servicetest/problem.go",
	}
	for _, dir := range []string{"platform", "app", "cmd"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			rel = filepath.ToSlash(rel)
			if (bytes.Contains(src, []byte("problem.ContentType")) || bytes.Contains(src, []byte("problem+json"))) && !slices.Contains(allowed, rel) {
				t.Errorf("%s names the problem media type: a problem written there is outside the error handler", rel)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// cuttableDatabase is a PostgreSQL database reached through a loopback
// proxy that cut takes away: every connection through it is closed and new
// ones are refused, as when the database's host goes away.
type cuttableDatabase struct {
	dsn string
	ln  net.Listener

	mu    sync.Mutex
	conns []net.Conn
	gone  bool
}

// newCuttableDatabase proxies the database at dsn until t ends.
func newCuttableDatabase(t *testing.T, dsn string) *cuttableDatabase {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	target := u.Host
	u.Host = ln.Addr().String()
	d := &cuttableDatabase{dsn: u.String(), ln: ln}
	t.Cleanup(d.cut)
	go d.accept(target)
	return d
}

// accept proxies each connection to target until the listener closes.
func (d *cuttableDatabase) accept(target string) {
	for {
		in, err := d.ln.Accept()
		if err != nil {
			return
		}
		out, err := net.Dial("tcp", target)
		if err != nil {
			in.Close()
			continue
		}
		d.mu.Lock()
		if d.gone {
			d.mu.Unlock()
			in.Close()
			out.Close()
			return
		}
		d.conns = append(d.conns, in, out)
		d.mu.Unlock()
		go pipe(in, out)
		go pipe(out, in)
	}
}

// pipe copies from src to dst, closing both when either ends.
func pipe(dst, src net.Conn) {
	_, _ = io.Copy(dst, src)
	dst.Close()
	src.Close()
}

// cut closes the proxy and every connection through it.
func (d *cuttableDatabase) cut() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.gone = true
	d.ln.Close()
	for _, c := range d.conns {
		c.Close()
	}
}
