package integration

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asapjs/fiber-template/internal/testkit"
	"github.com/asapjs/fiber-template/tests/integration/pgtest"
)

// Parameters of TestAccountChangesHoldForLoginsInFlight (issue 39).
const (
	// barrierClients log in as the user in a loop while the change is made.
	barrierClients = 6
	// barrierRounds is how many times each change is tried, each on a
	// user of its own.
	barrierRounds = 5
	// barrierLead is how long the clients log in before the change, so
	// that logins are in flight when it comes.
	barrierLead = 600 * time.Millisecond
	// barrierTail is how long they go on after the change answered.
	barrierTail = 200 * time.Millisecond
	// barrierMargin is how much earlier than the change a login must be
	// sent to have begun before it: the service can order what it has
	// received, and a request sent a moment before another over loopback
	// may still be read after it on a loaded machine.
	barrierMargin = 50 * time.Millisecond
	// barrierGrace is how long after the change answered the tokens are
	// checked: the promise is that it holds by then on every instance.
	barrierGrace = time.Second
	// barrierPassword is the password of every user of the test.
	barrierPassword = "barrier-pass-1234"
)

// TestAccountChangesHoldForLoginsInFlight starts the built binary and,
// while six clients log in as a user in a loop (real bcrypt cost, so that
// each login spends tens of milliseconds between reading the user and
// beginning its session), makes a change that must end the user's
// sessions: a demotion, a deactivation, a password change, "end every
// session" and a delete. One second after the change answers, no access
// token of a login sent before the change (by barrierMargin) is accepted
// with the rights the change took away, on any instance, and no refresh
// of such a session works. Five rounds of each, on SQLite, on PostgreSQL, and on PostgreSQL
// with two processes (logins spread over both, the change made on one).
func TestAccountChangesHoldForLoginsInFlight(t *testing.T) {
	runsTheBinary(t)
	t.Parallel()
	bin := buildAPI(t)
	deployments := []struct {
		name      string
		dsn       func(t testing.TB) string
		processes int
	}{
		{"on SQLite", nil, 1},
		{"on PostgreSQL", pgtest.NewDatabase, 1},
		{"on PostgreSQL, two processes", pgtest.NewDatabase, 2},
	}
	for _, d := range deployments {
		t.Run(d.name, func(t *testing.T) {
			t.Parallel()
			var dsn string
			if d.dsn != nil {
				dsn = d.dsn(t)
			}
			var bases []string
			for range d.processes {
				port := testkit.Port(t)
				config := sqliteAPI(t, port, map[string]string{
					"ADMIN_EMAIL": "root@example.com", "ADMIN_PASSWORD": barrierPassword,
					"AUTH_RATE_LIMIT": "0", "LOG_REQUESTS": "false", "LOG_LEVEL": "warn",
					// Password checks run at once, as on a larger machine,
					// rather than one at a time on two cores.
					"GOMAXPROCS": "8",
				})
				if dsn != "" {
					config["DATABASE_URL"] = dsn
				}
				startAPI(t, bin, config).WaitOK(t, healthCheck(port))
				bases = append(bases, fmt.Sprintf("http://127.0.0.1:%d", port))
			}
			s := &barrierService{bases: bases, client: &http.Client{
				Timeout:   15 * time.Second,
				Transport: &http.Transport{MaxIdleConnsPerHost: 2 * barrierClients},
			}}
			s.admin = s.mustLogin(t, "root@example.com", barrierPassword).AccessToken
			for _, c := range barrierChanges() {
				t.Run(c.name, func(t *testing.T) {
					var sum barrierTally
					for round := range barrierRounds {
						sum.add(s.round(t, c, fmt.Sprintf("%s-%d-%d", strings.ReplaceAll(c.name, " ", "-"), round, time.Now().UnixNano())))
					}
					// A run where no login spanned the change, or none sent
					// before it succeeded, proves nothing.
					t.Logf("in %d rounds: %d logins in flight when the change was sent, %d sent before it succeeded", barrierRounds, sum.inFlight, sum.succeeded)
					if sum.inFlight == 0 || sum.succeeded == 0 {
						t.Fatal("the rounds did not test the change against logins in flight")
					}
				})
			}
		})
	}
}

// barrierChange is a change to the user id that ends its sessions: it
// sends the change and returns its status. role is the user's role before.
type barrierChange struct {
	name string
	role string
	make func(t *testing.T, s *barrierService, id int64, self string) int
	// kept is the route that needs only what the change took away: a
	// token of a login sent before the change must not be answered 200
	// there. A demoted admin keeps its membership, so it is the admins'
	// list; a deleted user is not found at /users/me whatever its token,
	// so it is its sessions, which need only a token; otherwise the user
	// itself.
	kept string
	// loginsAfter is what a login sent after the change may do: succeed
	// (after "end every session"), succeed without the rights taken away
	// (after a demotion: kept refuses its token), or fail.
	loginsAfter barrierAfter
}

// barrierAfter is what a login sent after the change may do.
type barrierAfter int

const (
	loginsSucceed barrierAfter = iota
	loginsSucceedWithout
	loginsFail
)

// barrierChanges are the changes of issue 39.
func barrierChanges() []barrierChange {
	admin := func(method, suffix string, body any) func(t *testing.T, s *barrierService, id int64, _ string) int {
		return func(t *testing.T, s *barrierService, id int64, _ string) int {
			return s.call(t, 0, method, "/api/users/"+strconv.FormatInt(id, 10)+suffix, s.admin, body).status
		}
	}
	return []barrierChange{
		{name: "demote", role: "admin", kept: "/api/users", loginsAfter: loginsSucceedWithout,
			make: admin(http.MethodPatch, "", map[string]any{"role": "member"})},
		{name: "deactivate", role: "member", kept: "/api/users/me", loginsAfter: loginsFail,
			make: admin(http.MethodPatch, "", map[string]any{"active": false})},
		{name: "change the password", role: "member", kept: "/api/users/me", loginsAfter: loginsFail,
			make: func(t *testing.T, s *barrierService, _ int64, self string) int {
				return s.call(t, 0, http.MethodPut, "/api/users/me/password", self,
					map[string]string{"current_password": barrierPassword, "new_password": "another-pass-5678"}).status
			}},
		{name: "end every session", role: "member", kept: "/api/users/me", loginsAfter: loginsSucceed,
			make: admin(http.MethodDelete, "/sessions", nil)},
		{name: "delete", role: "member", kept: "/api/auth/sessions", loginsAfter: loginsFail,
			make: admin(http.MethodDelete, "", nil)},
	}
}

// barrierTally counts what a round tested.
type barrierTally struct {
	// inFlight logins were sent before the change and answered after it
	// was sent; succeeded logins were sent before it and answered 200.
	inFlight, succeeded int
}

func (t *barrierTally) add(u barrierTally) {
	t.inFlight += u.inFlight
	t.succeeded += u.succeeded
}

// barrierService is the service under test: one or more instances of it.
type barrierService struct {
	bases  []string
	client *http.Client
	admin  string
}

// barrierAnswer is an answer read in full.
type barrierAnswer struct {
	status int
	body   []byte
}

// call sends a request to instance i (modulo their number) with token as
// bearer, body as JSON (or a merge patch for PATCH), and reads the answer.
func (s *barrierService) call(t *testing.T, i int, method, path, token string, body any) barrierAnswer {
	t.Helper()
	a, err := s.try(i, method, path, token, body)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	return a
}

// try is call without a test: the login loop runs it off the test's
// goroutine.
func (s *barrierService) try(i int, method, path, token string, body any) (barrierAnswer, error) {
	var (
		r           io.Reader
		contentType string
	)
	switch b := body.(type) {
	case nil:
	case url.Values:
		r, contentType = strings.NewReader(b.Encode()), "application/x-www-form-urlencoded"
	default:
		data, err := json.Marshal(b)
		if err != nil {
			return barrierAnswer{}, err
		}
		r, contentType = strings.NewReader(string(data)), "application/json"
		if method == http.MethodPatch {
			contentType = "application/merge-patch+json"
		}
	}
	req, err := http.NewRequest(method, s.bases[i%len(s.bases)]+path, r)
	if err != nil {
		return barrierAnswer{}, err
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := s.client.Do(req)
	if err != nil {
		return barrierAnswer{}, err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	return barrierAnswer{status: res.StatusCode, body: data}, err
}

// mustLogin logs in on the first instance.
func (s *barrierService) mustLogin(t *testing.T, email, password string) pair {
	t.Helper()
	a := s.call(t, 0, http.MethodPost, "/api/auth/login", "", url.Values{"username": {email}, "password": {password}})
	if a.status != http.StatusOK {
		t.Fatalf("login as %s: %d %s", email, a.status, a.body)
	}
	var p pair
	if err := json.Unmarshal(a.body, &p); err != nil {
		t.Fatal(err)
	}
	return p
}

// barrierLogin is one login of the loop.
type barrierLogin struct {
	sent, answered time.Time
	status         int
	pair           pair
}

// round makes a user with the change's role, logs in as it from
// barrierClients clients spread over the instances, makes the change
// barrierLead later, and a second after it answered checks every token
// and refresh token of the logins sent before it, and those of the logins
// sent after it as the change allows. It returns what the round tested.
func (s *barrierService) round(t *testing.T, c barrierChange, name string) barrierTally {
	t.Helper()
	email := name + "@example.com"
	created := s.call(t, 0, http.MethodPost, "/api/users", s.admin,
		map[string]any{"email": email, "name": "Barrier", "password": barrierPassword, "role": c.role, "active": true})
	if created.status != http.StatusCreated {
		t.Fatalf("create %s: %d %s", email, created.status, created.body)
	}
	var user struct {
		ID int64 `json:"id"`
	}
	if err := json.Unmarshal(created.body, &user); err != nil {
		t.Fatal(err)
	}
	self := s.mustLogin(t, email, barrierPassword).AccessToken

	stop := make(chan struct{})
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		logins []barrierLogin
	)
	form := url.Values{"username": {email}, "password": {barrierPassword}}
	for client := range barrierClients {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				l := barrierLogin{sent: time.Now()}
				a, err := s.try(client, http.MethodPost, "/api/auth/login", "", form)
				l.answered, l.status = time.Now(), a.status
				if err == nil && a.status == http.StatusOK {
					err = json.Unmarshal(a.body, &l.pair)
				}
				if err != nil {
					t.Errorf("login: %v", err)
					return
				}
				mu.Lock()
				logins = append(logins, l)
				mu.Unlock()
			}
		})
	}
	time.Sleep(barrierLead)
	// A change refused because the password hashing is busy (503, as the
	// logins keep it) is sent again, as a client would.
	var sent, answered time.Time
	status := http.StatusServiceUnavailable
	for try := 0; status == http.StatusServiceUnavailable && try < 50; try++ {
		if try > 0 {
			time.Sleep(20 * time.Millisecond)
		}
		sent = time.Now()
		status = c.make(t, s, user.ID, self)
		answered = time.Now()
	}
	time.Sleep(barrierTail)
	close(stop)
	wg.Wait()
	if status < 200 || status > 299 {
		t.Fatalf("the change answered %d", status)
	}
	time.Sleep(time.Until(answered.Add(barrierGrace)))

	var tally barrierTally
	statuses := map[int]int{}
	defer func() { t.Logf("round %s: logins answered %v", name, statuses) }()
	begun := sent.Add(-barrierMargin)
	for _, l := range logins {
		statuses[l.status]++
		if l.sent.Before(begun) && l.answered.After(sent) {
			tally.inFlight++
		}
		if l.status != http.StatusOK {
			continue
		}
		when := fmt.Sprintf("a login sent %s before the change and answered %s after it",
			sent.Sub(l.sent).Round(time.Millisecond), l.answered.Sub(sent).Round(time.Millisecond))
		if !l.sent.Before(begun) {
			// A login sent while the change was on its way, or just
			// before, may have come before it or after it: only a
			// demotion judges those.
			switch {
			case c.loginsAfter == loginsSucceed:
				continue
			case c.loginsAfter == loginsFail && l.sent.After(answered):
				t.Errorf("a login sent %s after the change answered succeeded", l.sent.Sub(answered).Round(time.Millisecond))
				continue
			case c.loginsAfter == loginsFail:
				continue
			}
			when = fmt.Sprintf("a login sent %+dms from the change", l.sent.Sub(sent).Milliseconds())
		} else {
			tally.succeeded++
			a := s.call(t, 1, http.MethodPost, "/api/auth/refresh", "", url.Values{"refresh_token": {l.pair.RefreshToken}})
			if a.status != http.StatusUnauthorized {
				t.Errorf("the refresh token of %s refreshed: %d %s", when, a.status, a.body)
			}
		}
		for i := range s.bases {
			if a := s.call(t, i, http.MethodGet, c.kept, l.pair.AccessToken, nil); a.status == http.StatusOK {
				t.Errorf("a token of %s is still accepted on instance %d at %s (%s)", when, i, c.kept, roleOf(t, l.pair.AccessToken))
			}
		}
	}
	return tally
}

// roleOf is the role claim of an access token, for messages.
func roleOf(t *testing.T, access string) string {
	t.Helper()
	return "role " + jwtClaimsOf(t, access).Role
}
