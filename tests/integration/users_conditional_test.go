package integration

import (
	"fmt"
	"maps"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/asapjs/fiber-template/internal/testkit"
	"github.com/asapjs/fiber-template/platform/servicetest"
	"github.com/asapjs/fiber-template/tests/integration/pgtest"
)

func TestUserConditionalRequests(t *testing.T) {
	forEachUserBackend(t, testUserConditionalRequests)
}

func testUserConditionalRequests(t *testing.T, newDSN func(*testing.T) string) {
	a := newUserAPI(t, newDSN(t))
	token := a.adminToken(t)
	ada := a.signUp(t, map[string]any{"email": "ada@example.com", "name": "Ada", "password": "analytical-engine-1"})
	path := fmt.Sprintf("/api/users/%d", ada.ID)
	update := func(name string) map[string]any {
		return map[string]any{"email": "ada@example.com", "name": name, "role": "member", "active": true}
	}
	get := func(t *testing.T, target string, header map[string]string) response {
		t.Helper()
		return a.send(t, req{method: http.MethodGet, path: target, token: token, header: header})
	}

	t.Run("an unchanged user is a 304 to its ETag", func(t *testing.T) {
		res := get(t, path, nil)
		tag := res.header.Get("ETag")
		if res.status != http.StatusOK || !strings.HasPrefix(tag, `"`) {
			t.Fatalf("GET: status %d, ETag %q; want a strong tag", res.status, tag)
		}
		res = get(t, path, map[string]string{"If-None-Match": tag})
		if res.status != http.StatusNotModified || len(res.body) != 0 || res.header.Get("ETag") != tag {
			t.Fatalf("GET with If-None-Match %s: status %d, ETag %q, body %q; want an empty 304 with the tag", tag, res.status, res.header.Get("ETag"), res.body)
		}
		if res.header.Get("Cache-Control") != "no-store" {
			t.Errorf("the 304 has Cache-Control %q, want no-store", res.header.Get("Cache-Control"))
		}
	})

	t.Run("an unchanged list page is a 304 to its weak ETag, a changed one is not", func(t *testing.T) {
		res := get(t, "/api/users?limit=5", nil)
		tag := res.header.Get("ETag")
		if res.status != http.StatusOK || !strings.HasPrefix(tag, `W/"`) {
			t.Fatalf("GET a page: status %d, ETag %q; want a weak tag", res.status, tag)
		}
		if res := get(t, "/api/users?limit=5", map[string]string{"If-None-Match": tag}); res.status != http.StatusNotModified || len(res.body) != 0 {
			t.Fatalf("the same page with If-None-Match: status %d, body %q; want an empty 304", res.status, res.body)
		}
		a.signUp(t, map[string]any{"email": "babbage@example.com", "name": "Charles", "password": "difference-engine-2"})
		if res := get(t, "/api/users?limit=5", map[string]string{"If-None-Match": tag}); res.status != http.StatusOK || res.header.Get("ETag") == tag {
			t.Fatalf("the page after a sign-up: status %d, ETag %q; want a 200 with another tag", res.status, res.header.Get("ETag"))
		}
	})

	t.Run("a PUT with the ETag read writes, the same tag again is a 412 with the current ETag", func(t *testing.T) {
		read := get(t, path, nil).header.Get("ETag")
		res := a.send(t, req{method: http.MethodPut, path: path, token: token, header: map[string]string{"If-Match": read}, body: update("Ada L")})
		next := res.header.Get("ETag")
		if res.status != http.StatusOK || next == "" || next == read {
			t.Fatalf("PUT with If-Match %s: status %d, ETag %q; want 200 with a new tag", read, res.status, next)
		}
		res = a.send(t, req{method: http.MethodPut, path: path, token: token, header: map[string]string{"If-Match": read}, body: update("Lost update")})
		res.wantCode(t, http.StatusPreconditionFailed, "precondition_failed")
		if res.header.Get("ETag") != next {
			t.Errorf("the 412 has ETag %q, want the current %s", res.header.Get("ETag"), next)
		}
		if got := get(t, path, nil).wantUser(t, http.StatusOK); got.Name != "Ada L" {
			t.Errorf("after the 412 the name is %q, want Ada L", got.Name)
		}
		for _, tag := range []string{"W/" + next, `"not-a-version"`} {
			a.send(t, req{method: http.MethodPut, path: path, token: token, header: map[string]string{"If-Match": tag}, body: update("x")}).
				wantCode(t, http.StatusPreconditionFailed, "precondition_failed")
		}
		a.send(t, req{method: http.MethodPut, path: path, token: token, header: map[string]string{"If-Match": "*"}, body: update("Ada")}).wantStatus(t, http.StatusOK)
		a.send(t, req{method: http.MethodPut, path: "/api/users/987654", token: token, header: map[string]string{"If-Match": next}, body: update("x")}).
			wantCode(t, http.StatusNotFound, "user_not_found")
	})

	t.Run("two concurrent PUTs with one ETag: one 200 and one 412", func(t *testing.T) {
		for round := range 5 {
			tag := get(t, path, nil).header.Get("ETag")
			statuses := racePuts(t, tag, func(i int, header map[string]string) (int, error) {
				res, err := a.do(t, req{method: http.MethodPut, path: path, token: token, header: header, body: update(fmt.Sprintf("Writer %d.%d", round, i))})
				return res.status, err
			})
			if statuses[http.StatusOK] != 1 || statuses[http.StatusPreconditionFailed] != 1 {
				t.Fatalf("round %d: statuses %v, want one 200 and one 412", round, statuses)
			}
		}
	})

	t.Run("a DELETE with a stale ETag is a 412 and deletes nothing", func(t *testing.T) {
		gone := a.signUp(t, map[string]any{"email": "gone@example.com", "name": "Gone", "password": "gone-password-1"})
		target := fmt.Sprintf("/api/users/%d", gone.ID)
		tag := get(t, target, nil).header.Get("ETag")
		a.send(t, req{method: http.MethodPut, path: target, token: token, body: map[string]any{"email": "gone@example.com", "name": "Changed", "role": "member", "active": true}}).wantStatus(t, http.StatusOK)
		a.send(t, req{method: http.MethodDelete, path: target, token: token, header: map[string]string{"If-Match": tag}}).
			wantCode(t, http.StatusPreconditionFailed, "precondition_failed")
		get(t, target, nil).wantStatus(t, http.StatusOK)
		current := get(t, target, nil).header.Get("ETag")
		a.send(t, req{method: http.MethodDelete, path: target, token: token, header: map[string]string{"If-Match": current}}).wantStatus(t, http.StatusNoContent)
		get(t, target, nil).wantCode(t, http.StatusNotFound, "user_not_found")
	})
}

// racePuts sends two PUTs at once, each with If-Match tag, through send
// (called with the writer's number and its headers), and counts the
// statuses they got.
func racePuts(t *testing.T, tag string, send func(i int, header map[string]string) (int, error)) map[int]int {
	t.Helper()
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		start    = make(chan struct{})
		statuses = map[int]int{}
	)
	for i := range 2 {
		wg.Go(func() {
			<-start
			status, err := send(i, map[string]string{"If-Match": tag})
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			statuses[status]++
			mu.Unlock()
		})
	}
	close(start)
	wg.Wait()
	return statuses
}

// TestConcurrentConditionalPutsFromTwoInstances races two PUTs with one
// ETag through two processes of the built binary on one PostgreSQL: the
// check and the write are one statement, so exactly one wins whichever
// instance serves it.
func TestConcurrentConditionalPutsFromTwoInstances(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs cmd/api twice; skipped with -short")
	}
	t.Parallel()
	dsn := pgtest.NewDatabase(t)
	bases := startInstances(t, 2, dsn, map[string]string{"ADMIN_EMAIL": "admin@example.com", "ADMIN_PASSWORD": "two-instances-admin-1"})
	token := decodeToken(t, call(t, bases[0], http.MethodPost, "/api/auth/login", "", nil, `{"username":"admin@example.com","password":"two-instances-admin-1"}`))
	created := call(t, bases[0], http.MethodPost, "/api/users", "", nil, `{"email":"raced@example.com","name":"Raced","password":"raced-password-1"}`)
	var user struct {
		ID int64 `json:"id"`
	}
	created.decode(t, http.StatusCreated, &user)
	path := fmt.Sprintf("/api/users/%d", user.ID)
	for round := range 5 {
		read := call(t, bases[round%2], http.MethodGet, path, token, nil, "")
		read.wantStatus(t, http.StatusOK)
		statuses := racePuts(t, read.header.Get("ETag"), func(i int, header map[string]string) (int, error) {
			body := fmt.Sprintf(`{"email":"raced@example.com","name":"Instance %d round %d","role":"member","active":true}`, i, round)
			return call(t, bases[i], http.MethodPut, path, token, header, body).status, nil
		})
		if statuses[http.StatusOK] != 1 || statuses[http.StatusPreconditionFailed] != 1 {
			t.Fatalf("round %d: statuses %v, want one 200 and one 412", round, statuses)
		}
	}
}

// startInstances starts n processes of the built binary on the
// PostgreSQL database dsn, with the auth rate limit off and the extra
// settings, and returns their base URLs once each is healthy.
func startInstances(t *testing.T, n int, dsn string, extra map[string]string) []string {
	t.Helper()
	bin := buildAPI(t)
	bases := make([]string, n)
	for i := range bases {
		port := testkit.Port(t)
		env := map[string]string{
			"HOST": "127.0.0.1", "PORT": strconv.Itoa(port), "DATABASE_URL": dsn,
			"JWT_SECRET":      "integration-test-secret-of-32-bytes-or-more",
			"AUTH_RATE_LIMIT": "0", "MIGRATE_ON_START": "true",
		}
		maps.Copy(env, extra)
		startAPI(t, bin, env).WaitOK(t, healthCheck(port))
		bases[i] = fmt.Sprintf("http://127.0.0.1:%d", port)
	}
	return bases
}

// call sends one request to a listening service and reads its answer; a
// failure to send is reported with t.Error and answered as status 0, so
// that it may run on any goroutine.
func call(t *testing.T, base, method, path, token string, header map[string]string, body string) response {
	t.Helper()
	req, err := http.NewRequest(method, base+path, strings.NewReader(body))
	if err != nil {
		t.Error(err)
		return response{}
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := servicetest.Exchange(req)
	if err != nil {
		t.Error(err)
	}
	return response{status: res.Status, header: res.Header, body: res.Body}
}

// decodeToken reads the access token of a login's answer.
func decodeToken(t *testing.T, res response) string {
	t.Helper()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	res.decode(t, http.StatusOK, &tok)
	return tok.AccessToken
}
