package integration

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/uptrace/bun"
	"golang.org/x/crypto/bcrypt"

	"github.com/asapjs/fiber-template/app"
	"github.com/asapjs/fiber-template/migrations"
	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/router"
	"github.com/asapjs/fiber-template/platform/servicetest"
	"github.com/asapjs/fiber-template/tests/integration/pgtest"
)

// userTestSecret signs and verifies the tokens of the users suite.
var userTestSecret = []byte("users-suite-secret-0123456789abcdef")

// userBackends are the databases the users suite runs on: each gives a
// fresh, empty database per call.
func userBackends() []backend {
	return []backend{
		{"PostgreSQL", func(t *testing.T) string { return pgtest.NewDatabase(t) }},
		{"SQLite", func(t *testing.T) string { return "sqlite:" + filepath.Join(t.TempDir(), "app.db") }},
	}
}

// leakWords must never appear in a response body, case aside: password
// hashes, their column, and the database's or the runtime's internals.
var leakWords = []string{"$2a$", "$2b$", "$2y$", "password_hash", "SQLSTATE", "pq:", "pgx", "pgconn", "sqlite", "bun:", "goroutine"}

// userAPI is the service under test on one database, with its migrations
// applied and a low bcrypt cost. Every response it sees is scanned for
// leaks: leakWords and every password any request sent.
type userAPI struct {
	r  *router.Router
	db *bun.DB
	// admin makes the test admin on first use, so that the tests that
	// need none count only their own users.
	admin sync.Once

	mu        sync.Mutex
	passwords map[string]bool
	scanned   int
}

// newUserAPI migrates the database at dsn and builds the service on it.
func newUserAPI(t *testing.T, dsn string) *userAPI {
	t.Helper()
	return newUserAPIWith(t, dsn, app.Options{})
}

// newUserAPIWith is newUserAPI with options; the bcrypt cost is always the
// lowest. Lists count exactly within a minute unless opts says otherwise:
// the service's 25 ms budget would turn an exact count into an estimate
// whenever a loaded machine pauses the test, and the tests of the budget
// pass a strategy of their own.
func newUserAPIWith(t *testing.T, dsn string, opts app.Options) *userAPI {
	t.Helper()
	opts.BcryptCost = bcrypt.MinCost
	if opts.Count == (database.CountStrategy{}) {
		opts.Count = database.CountAuto(time.Minute)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	db := openDB(t, dsn)
	if err := migrations.Up(ctx, db); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	r, err := app.NewWithOptions(db, router.Config{
		BasePath:  "/api",
		JWTSecret: userTestSecret,
		Logger:    slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn})),
	}, opts)
	if err != nil {
		t.Fatalf("build service: %v", err)
	}
	a := &userAPI{r: r, db: db, passwords: map[string]bool{}}
	t.Cleanup(func() {
		a.mu.Lock()
		defer a.mu.Unlock()
		t.Logf("scanned %d response bodies for leaks", a.scanned)
	})
	return a
}

// forEachUserBackend runs suite on each backend as a parallel subtest; the
// suite gets a function making a fresh database per call.
func forEachUserBackend(t *testing.T, suite func(t *testing.T, newDSN func(*testing.T) string)) {
	t.Helper()
	t.Parallel()
	for _, b := range userBackends() {
		t.Run("on "+b.name, func(t *testing.T) {
			t.Parallel()
			suite(t, b.dsn)
		})
	}
}

// req is one request to the service.
type req struct {
	method, path string
	// token is sent as a bearer token when set.
	token string
	// header holds extra headers.
	header map[string]string
	// body is sent as JSON, or as a URL-encoded form when it is url.Values,
	// or as is when it is []byte.
	body any
	// contentType overrides the Content-Type of body.
	contentType string
}

// do sends rq and returns the response; it is safe to call from several
// goroutines, and reports failures with t.Errorf only.
func (a *userAPI) do(t *testing.T, rq req) (response, error) {
	t.Helper()
	var body []byte
	ct := ""
	switch b := rq.body.(type) {
	case nil:
	case []byte:
		body = b
	case url.Values:
		body, ct = []byte(b.Encode()), "application/x-www-form-urlencoded"
		a.remember(b.Get("password"))
	default:
		var err error
		if body, err = json.Marshal(b); err != nil {
			return response{}, fmt.Errorf("encode body: %w", err)
		}
		ct = "application/json"
		var fields map[string]any
		if json.Unmarshal(body, &fields) == nil {
			if pw, ok := fields["password"].(string); ok {
				a.remember(pw)
			}
		}
	}
	if rq.contentType != "" {
		ct = rq.contentType
	}
	hr := httptest.NewRequest(rq.method, rq.path, bytes.NewReader(body))
	if ct != "" {
		hr.Header.Set("Content-Type", ct)
	}
	if rq.token != "" {
		hr.Header.Set("Authorization", "Bearer "+rq.token)
	}
	for k, v := range rq.header {
		hr.Header.Set(k, v)
	}
	res, err := a.r.App().Test(hr, -1)
	if err != nil {
		return response{}, fmt.Errorf("%s %s: %w", rq.method, rq.path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return response{}, fmt.Errorf("%s %s: read body: %w", rq.method, rq.path, err)
	}
	out := response{status: res.StatusCode, header: res.Header, body: b}
	a.scan(t, rq, out)
	return out, nil
}

// send is do for the test goroutine: a failure to send ends the test.
func (a *userAPI) send(t *testing.T, rq req) response {
	t.Helper()
	res, err := a.do(t, rq)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// remember adds a password no response may contain.
func (a *userAPI) remember(password string) {
	if password == "" {
		return
	}
	a.mu.Lock()
	a.passwords[password] = true
	a.mu.Unlock()
}

// scan fails t for every leak in the body of res.
func (a *userAPI) scan(t *testing.T, rq req, res response) {
	t.Helper()
	a.mu.Lock()
	a.scanned++
	words := append([]string(nil), leakWords...)
	for pw := range a.passwords {
		words = append(words, pw)
	}
	a.mu.Unlock()
	for _, w := range leaks(res.body, words) {
		t.Errorf("%s %s: response body reveals %q: %s", rq.method, rq.path, w, res.body)
	}
}

// leaks returns the words that body, or the claims of an access token in
// it, holds, case aside. Tokens are random base64, in which any short word
// turns up now and then: an access token's claims are scanned instead of
// its text, and a refresh token, opaque, is left out.
func leaks(body []byte, words []string) []string {
	text := string(body)
	var token struct {
		AccessToken  string `json:"access_token"`
		RefreshToken string `json:"refresh_token"`
		NextCursor   string `json:"next_cursor"`
	}
	// Opaque values are random-looking base64: what a cursor holds is
	// scanned decoded, its signature not at all.
	if json.Unmarshal(body, &token) == nil && token.NextCursor != "" {
		payload, _, _ := strings.Cut(token.NextCursor, ".")
		decoded, _ := base64.RawURLEncoding.DecodeString(payload)
		text = strings.ReplaceAll(text, token.NextCursor, "") + " " + string(decoded)
	}
	if token.AccessToken != "" {
		text = strings.ReplaceAll(text, token.AccessToken, "") + " " + tokenClaimsText(token.AccessToken)
	}
	if token.RefreshToken != "" {
		text = strings.ReplaceAll(text, token.RefreshToken, "")
	}
	lower := strings.ToLower(text)
	var found []string
	for _, w := range words {
		if strings.Contains(lower, strings.ToLower(w)) {
			found = append(found, w)
		}
	}
	return found
}

// tokenClaimsText returns the decoded header and claims of a JWT, or the
// token itself when it is not one.
func tokenClaimsText(token string) string {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return token
	}
	header, err1 := base64.RawURLEncoding.DecodeString(parts[0])
	claims, err2 := base64.RawURLEncoding.DecodeString(parts[1])
	if err1 != nil || err2 != nil {
		return token
	}
	return string(header) + " " + string(claims)
}

// userJSON is a user as the API answers with it.
type userJSON struct {
	ID        int64     `json:"id"`
	Email     string    `json:"email"`
	Name      string    `json:"name"`
	Role      string    `json:"role"`
	Active    bool      `json:"active"`
	CreatedAt time.Time `json:"created_at"`
}

// userKeys are the keys of a user object, and the only ones.
var userKeys = []string{"active", "created_at", "email", "id", "name", "role"}

// pageJSON is a page of users as the API answers with it.
type pageJSON struct {
	Data          []userJSON `json:"data"`
	Page          int        `json:"page"`
	PageSize      int        `json:"page_size"`
	MaxPage       int        `json:"max_page"`
	HasPrev       bool       `json:"has_prev"`
	HasNext       bool       `json:"has_next"`
	TotalElements int        `json:"total_elements"`
	TotalExact    bool       `json:"total_exact"`
	NextCursor    string     `json:"next_cursor"`
}

// wantStatus fails t unless res has the status.
func (res response) wantStatus(t *testing.T, status int) {
	t.Helper()
	if res.status != status {
		t.Fatalf("status %d, want %d; body %s", res.status, status, res.body)
	}
}

// decode checks a JSON answer with the status and decodes it into v.
func (res response) decode(t *testing.T, status int, v any) {
	t.Helper()
	res.wantStatus(t, status)
	if mt := res.mediaType(t); mt != "application/json" {
		t.Errorf("media type %q, want application/json", mt)
	}
	if err := json.Unmarshal(res.body, v); err != nil {
		t.Fatalf("decode %s: %v", res.body, err)
	}
}

// wantUser checks a user answer with the status, and that it has exactly
// the keys of a user, and returns it.
func (res response) wantUser(t *testing.T, status int) userJSON {
	t.Helper()
	var keys map[string]json.RawMessage
	res.decode(t, status, &keys)
	wantKeys(t, keys, userKeys)
	var u userJSON
	res.decode(t, status, &u)
	return u
}

// wantKeys fails t unless obj has exactly the keys.
func wantKeys(t *testing.T, obj map[string]json.RawMessage, keys []string) {
	t.Helper()
	if len(obj) != len(keys) {
		t.Errorf("object has keys %v, want %v", sortedKeys(obj), keys)
		return
	}
	for _, k := range keys {
		if _, ok := obj[k]; !ok {
			t.Errorf("object has keys %v, want %v", sortedKeys(obj), keys)
			return
		}
	}
}

func sortedKeys(obj map[string]json.RawMessage) []string {
	return slices.Sorted(maps.Keys(obj))
}

// wantCode checks a problem answer with the status and the declared code.
func (res response) wantCode(t *testing.T, status int, code string) {
	t.Helper()
	p := res.wantProblem(t, status)
	if p.Code != code {
		t.Errorf("problem code %q, want %q; body %s", p.Code, code, res.body)
	}
}

// wantFields checks a problem answer with the status whose errors name
// exactly the fields, in any order.
func (res response) wantFields(t *testing.T, status int, fields ...string) {
	t.Helper()
	p := res.wantProblem(t, status)
	got := map[string]bool{}
	for _, e := range p.Errors {
		if e.Message == "" {
			t.Errorf("field %q has no message; body %s", e.Field, res.body)
		}
		got[e.Field] = true
	}
	if len(got) != len(fields) {
		t.Errorf("problem names fields %v, want %v; body %s", p.Errors, fields, res.body)
		return
	}
	for _, f := range fields {
		if !got[f] {
			t.Errorf("problem names fields %v, want %v; body %s", p.Errors, fields, res.body)
			return
		}
	}
}

// signUp signs up a user and returns it.
func (a *userAPI) signUp(t *testing.T, body map[string]any) userJSON {
	t.Helper()
	var token string
	if _, ok := body["role"]; ok {
		token = a.adminToken(t) // only admins choose a role or the active flag
	} else if _, ok := body["active"]; ok {
		token = a.adminToken(t)
	}
	res := a.send(t, req{method: http.MethodPost, path: "/api/users", token: token, body: body})
	u := res.wantUser(t, http.StatusCreated)
	if loc, want := res.header.Get("Location"), "/api/users/"+strconv.FormatInt(u.ID, 10); loc != want {
		t.Errorf("sign-up: Location %q, want %q", loc, want)
	}
	return u
}

// login logs in with JSON and returns the access token.
func (a *userAPI) login(t *testing.T, email, password string) string {
	t.Helper()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	a.send(t, req{method: http.MethodPost, path: "/api/auth/login",
		body: map[string]string{"username": email, "password": password}}).decode(t, http.StatusOK, &tok)
	if tok.AccessToken == "" {
		t.Fatal("login answered no access token")
	}
	return tok.AccessToken
}

// newUserToken signs up a user and returns a token of theirs, for the
// routes that need one.
func (a *userAPI) newUserToken(t *testing.T, email string) string {
	t.Helper()
	const password = "token-holder-pass-7"
	// An admin: the users routes these tokens call are admin-only.
	a.signUp(t, map[string]any{"email": email, "name": "Token Holder", "password": password, "role": "admin"})
	return a.login(t, email, password)
}

// The test admin of a userAPI.
const (
	testAdminEmail    = "root@example.com"
	testAdminPassword = "root-pass-0123"
)

// adminToken logs the test admin in, creating it on first use as
// `api users create` does, and returns its access token.
func (a *userAPI) adminToken(t *testing.T) string {
	t.Helper()
	a.admin.Do(func() {
		// A test may have made it already, as the bootstrap admin.
		_, err := app.CreateUser(t.Context(), a.db, app.NewUser{Email: testAdminEmail, Name: "Test Admin", Password: testAdminPassword, Role: "admin"}, bcrypt.MinCost)
		if err != nil && !errors.Is(err, app.ErrUserExists) {
			t.Fatalf("create the test admin: %v", err)
		}
	})
	return a.login(t, testAdminEmail, testAdminPassword)
}

// mintToken signs claims with secret as an access token (typ at+jwt), as
// a client that knows the secret could.
func mintToken(t *testing.T, secret []byte, claims jwt.Claims) string {
	t.Helper()
	return mintTokenWith(t, secret, claims, nil)
}

// mintTokenWith is mintToken with the header fields set, or removed when
// nil.
func mintTokenWith(t *testing.T, secret []byte, claims jwt.Claims, header map[string]any) string {
	t.Helper()
	return servicetest.SignJWT(t, jwt.SigningMethodHS256, secret, claims, header)
}
