package sessions

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/app/models"
	"github.com/asapjs/fiber-template/app/repositories"
	"github.com/asapjs/fiber-template/migrations"
	"github.com/asapjs/fiber-template/platform/router"
	"github.com/asapjs/fiber-template/platform/servicetest"
	"github.com/asapjs/fiber-template/platform/token"
)

// The configuration of the sessions under test.
const (
	testSecret     = "sessions-suite-secret-0123456789abcdef"
	testIssuer     = "sessions-test"
	testAudience   = "sessions-test-api"
	testAccessTTL  = 15 * time.Minute
	testRefreshTTL = 24 * time.Hour
)

// testClock is a clock the test moves by hand. The service reads it from
// its own goroutines too, so it is behind a lock.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

// Now is the clock's time, the Config.Now of the service under test.
func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Add moves the clock forward by d.
func (c *testClock) Add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// fixture is a started Service on a migrated SQLite database, the clock it
// runs on, and an active member to log in.
type fixture struct {
	db    *bun.DB
	clock *testClock
	user  *models.User
	s     *Service
}

// newFixture migrates a fresh database, creates the member and starts the
// service at a fixed time.
func newFixture(t *testing.T) *fixture {
	t.Helper()
	db := servicetest.SQLite(t)
	if err := migrations.Up(t.Context(), db); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	u := &models.User{Email: "member@example.com", Name: "Member", PasswordHash: "unused", Role: models.RoleMember, Active: true}
	if err := repositories.NewUsers(db).Create(t.Context(), u); err != nil {
		t.Fatalf("create the member: %v", err)
	}
	f := &fixture{db: db, clock: &testClock{now: time.Date(2030, time.January, 2, 3, 4, 5, 0, time.UTC)}, user: u}
	f.s = f.newService(t)
	return f
}

// newService builds and starts a Service on the fixture's database and
// clock, as an instance starting (or restarting) does; it runs until t
// ends.
func (f *fixture) newService(t *testing.T) *Service {
	t.Helper()
	s := New(f.db, Config{
		Keys:       secretKeys(t, testSecret),
		Issuer:     testIssuer,
		Audience:   testAudience,
		AccessTTL:  testAccessTTL,
		RefreshTTL: testRefreshTTL,
		Logger:     slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn})),
		Now:        f.clock.Now,
	})
	s.Start(t.Context())
	return s
}

// begin logs the member in and returns the pair and the claims of its
// access token.
func (f *fixture) begin(t *testing.T) (Token, *router.Claims) {
	t.Helper()
	tok, err := f.s.Begin(t.Context(), f.user, Client{Address: "192.0.2.1", UserAgent: "test"}, f.clock.Now())
	if err != nil {
		t.Fatalf("begin: %v", err)
	}
	return tok, f.verify(t, tok.AccessToken)
}

// verify checks the signature and lifetime of an access token at the
// fixture's time, as the router does before CheckToken, and returns its
// claims.
func (f *fixture) verify(t *testing.T, token string) *router.Claims {
	t.Helper()
	c := &router.Claims{}
	if _, err := jwt.ParseWithClaims(token, c, func(*jwt.Token) (any, error) { return []byte(testSecret), nil },
		jwt.WithValidMethods([]string{"HS256"}), jwt.WithTimeFunc(f.clock.Now)); err != nil {
		t.Fatalf("access token %q does not verify: %v", token, err)
	}
	return c
}

// revocation returns the revocation record of the session, and whether
// there is one.
func (f *fixture) revocation(t *testing.T, sid string) (models.Revocation, bool) {
	t.Helper()
	var rs []models.Revocation
	if err := f.db.NewSelect().Model(&rs).Where("session_id = ?", sid).Scan(t.Context()); err != nil {
		t.Fatalf("select revocation: %v", err)
	}
	if len(rs) == 0 {
		return models.Revocation{}, false
	}
	return rs[0], true
}

// rows counts the rows of model's table that belong to the session.
func (f *fixture) rows(t *testing.T, model any, column, sid string) int64 {
	t.Helper()
	n, err := f.db.NewSelect().Model(model).Where("? = ?", bun.Ident(column), sid).Count(t.Context())
	if err != nil {
		t.Fatalf("count: %v", err)
	}
	return n
}

// tick runs maintain for exactly one tick at the clock's time and waits
// until that tick's pruning is done.
func (f *fixture) tick(t *testing.T, s *Service) {
	t.Helper()
	ticks := make(chan time.Time)
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.maintain(t.Context(), ticks)
	}()
	ticks <- f.clock.Now()
	close(ticks)
	<-done
}

func TestCheckToken(t *testing.T) {
	f := newFixture(t)
	_, good := f.begin(t)
	_, ended := f.begin(t)
	if err := f.s.EndOwn(t.Context(), f.user.ID, ended.SessionID); err != nil {
		t.Fatalf("end session: %v", err)
	}
	cases := []struct {
		name string
		edit func(c *router.Claims)
		want error
	}{
		{"the service's own token", func(*router.Claims) {}, nil},
		{"a token of another issuer", func(c *router.Claims) { c.Issuer = "someone-else" }, errIssuer},
		{"a token without an issuer", func(c *router.Claims) { c.Issuer = "" }, errIssuer},
		{"a token for another audience", func(c *router.Claims) { c.Audience = jwt.ClaimStrings{"another-api"} }, errAudience},
		{"a token without an audience", func(c *router.Claims) { c.Audience = nil }, errAudience},
		{"a token for this audience among others", func(c *router.Claims) { c.Audience = jwt.ClaimStrings{"another-api", testAudience} }, nil},
		{"a token without a session id", func(c *router.Claims) { c.SessionID = "" }, errNoSID},
		{"a token of an ended session", func(c *router.Claims) { c.SessionID = ended.SessionID }, errRevoked},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			claims := *good
			c.edit(&claims)
			if err := f.s.CheckToken(&claims); !errors.Is(err, c.want) {
				t.Errorf("CheckToken: %v, want %v", err, c.want)
			}
		})
	}
}

func TestRevokedTokenRefusedWhileItCouldBeValid(t *testing.T) {
	cases := []struct {
		name        string
		after       time.Duration
		wantRefused bool
	}{
		{"right after the logout", 0, true},
		{"halfway through the token's life", testAccessTTL / 2, true},
		{"a second before the token expires", testAccessTTL - time.Second, true},
		{"when the token expires", testAccessTTL, true},
		{"within the minute of clock skew after it", testAccessTTL + time.Minute - time.Second, true},
		{"long after the token expired, when the revocation is forgotten", testAccessTTL + time.Hour, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			_, claims := f.begin(t)
			if err := f.s.EndOwn(t.Context(), f.user.ID, claims.SessionID); err != nil {
				t.Fatalf("end session: %v", err)
			}
			r, ok := f.revocation(t, claims.SessionID)
			if !ok || r.ExpiresAt.Before(claims.ExpiresAt.Time) {
				t.Fatalf("revocation record %+v (found %v) ends before the token's exp %v", r, ok, claims.ExpiresAt.Time)
			}
			f.clock.Add(c.after)
			f.tick(t, f.s)
			if refused := f.s.CheckToken(claims) != nil; refused != c.wantRefused {
				t.Errorf("refused by the instance that revoked it: %v, want %v", refused, c.wantRefused)
			}
			if refused := f.newService(t).CheckToken(claims) != nil; refused != c.wantRefused {
				t.Errorf("refused by an instance started now: %v, want %v", refused, c.wantRefused)
			}
			if _, kept := f.revocation(t, claims.SessionID); kept != c.wantRefused {
				t.Errorf("revocation record kept: %v, want %v", kept, c.wantRefused)
			}
		})
	}
}

func TestMaintainPrunesOnEveryTick(t *testing.T) {
	f := newFixture(t)
	_, claims := f.begin(t)
	sid := claims.SessionID
	if err := f.s.EndOwn(t.Context(), f.user.ID, sid); err != nil {
		t.Fatalf("end session: %v", err)
	}
	steps := []struct {
		name        string
		after       time.Duration
		wantRevoked bool
		wantRows    int64
	}{
		{"a tick while the token could be valid keeps everything", testAccessTTL, true, 1},
		{"a tick after the token expired forgets the revocation and deletes the session", time.Hour, false, 0},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			f.clock.Add(st.after)
			f.tick(t, f.s)
			if got := f.s.revoked.has(sid); got != st.wantRevoked {
				t.Errorf("revoked in memory: %v, want %v", got, st.wantRevoked)
			}
			for _, table := range []struct {
				model  any
				column string
			}{
				{(*models.Revocation)(nil), "session_id"},
				{(*models.Session)(nil), "id"},
				{(*models.RefreshToken)(nil), "session_id"},
			} {
				if n := f.rows(t, table.model, table.column, sid); n != st.wantRows {
					t.Errorf("%T: %d rows of the session, want %d", table.model, n, st.wantRows)
				}
			}
		})
	}
}

func TestMaintainStopsWhenTheDatabaseIsClosed(t *testing.T) {
	f := newFixture(t)
	if err := f.db.Close(); err != nil {
		t.Fatalf("close the database: %v", err)
	}
	ticks := make(chan time.Time)
	done := make(chan struct{})
	go func() {
		defer close(done)
		f.s.maintain(t.Context(), ticks)
	}()
	ticks <- f.clock.Now()
	// Neither another tick nor the end of the context: the closed database
	// alone must end it.
	<-done
}

func TestRefreshOfAnExpiredSession(t *testing.T) {
	cases := []struct {
		name  string
		after time.Duration
		want  error
	}{
		{"a second before the session expires, it refreshes", testRefreshTTL - time.Second, nil},
		{"when the session expires, it is refused", testRefreshTTL, ErrInvalidRefresh},
		{"a day after the session expired, it is refused", testRefreshTTL + 24*time.Hour, ErrInvalidRefresh},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			tok, _ := f.begin(t)
			f.clock.Add(c.after)
			next, err := f.s.Refresh(t.Context(), tok.RefreshToken)
			if !errors.Is(err, c.want) {
				t.Fatalf("Refresh: %v, want %v", err, c.want)
			}
			if err == nil {
				if err := f.s.CheckToken(f.verify(t, next.AccessToken)); err != nil {
					t.Errorf("the refreshed access token is refused: %v", err)
				}
			}
		})
	}
}

// secretKeys are the HS256 keys of secret.
func secretKeys(t *testing.T, secret string) *token.Keys {
	t.Helper()
	keys, err := token.NewSecret([]byte(secret))
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// TestServiceWithoutALoggerLogsToTheDefault: Config.Logger is optional, so
// a service built without one logs its failures (here the first load of
// revocations, on a database not migrated yet) to slog's default instead
// of failing.
func TestServiceWithoutALoggerLogsToTheDefault(t *testing.T) {
	s := New(servicetest.SQLite(t), Config{Keys: secretKeys(t, testSecret), Issuer: testIssuer, Audience: testAudience,
		AccessTTL: testAccessTTL, RefreshTTL: testRefreshTTL})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	s.Start(ctx)
}

// TestStartWarnsWhenTheRevocationsCannotBeLoaded: an instance started
// before its tables are migrated says in its log that it has no
// revocations, and goes on; one that loads them says nothing.
func TestStartWarnsWhenTheRevocationsCannotBeLoaded(t *testing.T) {
	cases := []struct {
		name     string
		migrated bool
		want     string // the warning logged, "" for none
	}{
		{"migrated", true, ""},
		{"not migrated yet", false, `msg="load revocations" error=`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			db := servicetest.SQLite(t)
			if c.migrated {
				if err := migrations.Up(t.Context(), db); err != nil {
					t.Fatalf("migrate: %v", err)
				}
			}
			var log servicetest.Buffer
			s := New(db, Config{Keys: secretKeys(t, testSecret), Issuer: testIssuer, Audience: testAudience,
				AccessTTL: testAccessTTL, RefreshTTL: testRefreshTTL, Now: time.Now,
				Logger: slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelWarn}))})
			s.Start(t.Context())
			got := log.String()
			if c.want == "" && got != "" || !strings.Contains(got, c.want) {
				t.Errorf("logged %q, want %q", got, c.want)
			}
		})
	}
}
