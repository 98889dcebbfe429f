package integration

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestSignUp(t *testing.T) {
	forEachUserBackend(t, testSignUp)
}

func testSignUp(t *testing.T, newDSN func(*testing.T) string) {
	a := newUserAPI(t, newDSN(t))
	const password = "cobol-1959-pass"

	t.Run("a sign-up answers 201 with the user, the email lower-cased and the defaults", func(t *testing.T) {
		before := time.Now().Add(-time.Minute)
		u := a.signUp(t, map[string]any{"email": "Grace.Hopper@Example.COM", "name": "Grace Hopper", "password": password})
		if u.ID <= 0 || u.Email != "grace.hopper@example.com" || u.Name != "Grace Hopper" || u.Role != "member" || !u.Active {
			t.Errorf("user %+v, want grace.hopper@example.com, Grace Hopper, member, active", u)
		}
		if u.CreatedAt.Before(before) || u.CreatedAt.After(time.Now().Add(time.Minute)) {
			t.Errorf("created_at %v, want about now", u.CreatedAt)
		}
		got := a.send(t, req{method: http.MethodGet, path: fmt.Sprintf("/api/users/%d", u.ID),
			token: a.login(t, "grace.hopper@example.com", password)}).wantUser(t, http.StatusOK)
		if got != u {
			t.Errorf("read back %+v, want %+v", got, u)
		}
	})

	t.Run("a sign-up takes the role and active flag it is given", func(t *testing.T) {
		u := a.signUp(t, map[string]any{"email": "admin@example.com", "name": "Admin", "password": password, "role": "admin", "active": false})
		if u.Role != "admin" || u.Active {
			t.Errorf("user %+v, want an inactive admin", u)
		}
		u = a.signUp(t, map[string]any{"email": "guest@example.com", "name": "Guest", "password": password, "role": "guest", "active": true})
		if u.Role != "guest" || !u.Active {
			t.Errorf("user %+v, want an active guest", u)
		}
	})

	t.Run("a password of exactly 72 bytes is accepted and logs in", func(t *testing.T) {
		long := strings.Repeat("p", 72)
		a.signUp(t, map[string]any{"email": "long@example.com", "name": "Long", "password": long})
		a.login(t, "long@example.com", long)
	})

	t.Run("an email already taken answers 409, whatever its case", func(t *testing.T) {
		for _, email := range []string{"grace.hopper@example.com", "GRACE.HOPPER@EXAMPLE.COM", "Grace.Hopper@example.com"} {
			a.send(t, req{method: http.MethodPost, path: "/api/users",
				body: map[string]any{"email": email, "name": "Another Grace", "password": "another-pass-1"}}).
				wantCode(t, http.StatusConflict, "email_taken")
		}
	})

	invalid := []struct {
		name   string
		body   map[string]any
		fields []string
	}{
		{"an empty JSON object", map[string]any{}, []string{"email", "name", "password"}},
		{"a missing email", map[string]any{"name": "N", "password": password}, []string{"email"}},
		{"an email that is not one", map[string]any{"email": "not-an-email", "name": "N", "password": password}, []string{"email"}},
		{"a missing name", map[string]any{"email": "n1@example.com", "password": password}, []string{"name"}},
		{"a password of 7 characters", map[string]any{"email": "n2@example.com", "name": "N", "password": "seven-7"}, []string{"password"}},
		{"a password of 73 characters", map[string]any{"email": "n3@example.com", "name": "N", "password": strings.Repeat("q", 73)}, []string{"password"}},
		{"a password of 72 characters but more than 72 bytes", map[string]any{"email": "n4@example.com", "name": "N", "password": strings.Repeat("é", 72)}, []string{"password"}},
		{"an unknown role", map[string]any{"email": "n5@example.com", "name": "N", "password": password, "role": "root"}, []string{"role"}},
	}
	for _, tt := range invalid {
		t.Run("a sign-up with "+tt.name+" answers 422 naming the fields", func(t *testing.T) {
			a.send(t, req{method: http.MethodPost, path: "/api/users", body: tt.body}).
				wantFields(t, http.StatusUnprocessableEntity, tt.fields...)
		})
	}

	malformed := []struct {
		name        string
		body        []byte
		contentType string
		status      int
	}{
		{"a body that is not JSON answers 400", []byte(`{"email":`), "application/json", http.StatusBadRequest},
		{"a value of the wrong type answers 400", []byte(`{"email":"w@example.com","name":"W","password":"wrong-type-1","active":"yes"}`), "application/json", http.StatusBadRequest},
		{"an empty body answers 400", nil, "application/json", http.StatusBadRequest},
		{"a body that is not JSON by its media type answers 415", []byte(`email=x`), "text/plain", http.StatusUnsupportedMediaType},
	}
	for _, tt := range malformed {
		t.Run("a sign-up with "+tt.name, func(t *testing.T) {
			body := tt.body
			if body == nil {
				body = []byte{}
			}
			a.send(t, req{method: http.MethodPost, path: "/api/users", body: body, contentType: tt.contentType}).
				wantProblem(t, tt.status)
		})
	}

	t.Run("20 clients signing up at once all get 201 and distinct ids", func(t *testing.T) {
		const clients = 20
		ids := make([]int64, clients)
		var wg sync.WaitGroup
		for i := range clients {
			wg.Go(func() {
				res, err := a.do(t, req{method: http.MethodPost, path: "/api/users", body: map[string]any{
					"email": fmt.Sprintf("parallel%02d@example.com", i), "name": fmt.Sprintf("Parallel %02d", i), "password": "parallel-pass-1"}})
				if err != nil {
					t.Error(err)
					return
				}
				if res.status != http.StatusCreated {
					t.Errorf("client %d: status %d, want 201; body %s", i, res.status, res.body)
					return
				}
				var u userJSON
				if err := json.Unmarshal(res.body, &u); err != nil {
					t.Error(err)
				}
				ids[i] = u.ID
			})
		}
		wg.Wait()
		seen := map[int64]bool{}
		for i, id := range ids {
			if id <= 0 || seen[id] {
				t.Errorf("client %d got id %d, want a new positive id", i, id)
			}
			seen[id] = true
		}
		var page pageJSON
		a.send(t, req{method: http.MethodGet, path: "/api/users?q=parallel&limit=100", token: a.adminToken(t)}).
			decode(t, http.StatusOK, &page)
		if page.TotalElements != clients {
			t.Errorf("%d parallel users listed, want %d", page.TotalElements, clients)
		}
	})

	t.Run("10 clients signing up with one email at once: one gets 201, the others 409", func(t *testing.T) {
		const clients = 10
		statuses := make([]int, clients)
		var wg sync.WaitGroup
		for i := range clients {
			wg.Go(func() {
				email := "race@example.com"
				if i%2 == 1 {
					email = "RACE@example.com"
				}
				res, err := a.do(t, req{method: http.MethodPost, path: "/api/users", body: map[string]any{
					"email": email, "name": "Racer", "password": "race-pass-01"}})
				if err != nil {
					t.Error(err)
					return
				}
				statuses[i] = res.status
				if res.status == http.StatusConflict && !strings.Contains(string(res.body), "email_taken") {
					t.Errorf("409 without the email_taken code: %s", res.body)
				}
			})
		}
		wg.Wait()
		counts := map[int]int{}
		for _, s := range statuses {
			counts[s]++
		}
		if counts[http.StatusCreated] != 1 || counts[http.StatusConflict] != clients-1 {
			t.Errorf("statuses %v, want one 201 and %d 409", counts, clients-1)
		}
	})
}
