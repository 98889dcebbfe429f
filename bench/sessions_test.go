package bench

import (
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/uptrace/bun"
	"golang.org/x/crypto/bcrypt"

	"github.com/asapjs/fiber-template/app"
	"github.com/asapjs/fiber-template/app/models"
	"github.com/asapjs/fiber-template/app/sessions"
	"github.com/asapjs/fiber-template/migrations"
	"github.com/asapjs/fiber-template/platform/database"
)

// sessionsFixture is the example service's sessions on a SQLite database
// of its own, opened and migrated as the service opens and migrates it,
// with an admin logged in.
type sessionsFixture struct {
	// service is the revocation checker the service gives the router.
	service *sessions.Service
	// authorization is the header carrying the admin's access token, as
	// Begin issues it at a login (sub, sid, iat, exp, iss, aud, role).
	authorization string
}

// newSessions builds the fixture in a temporary directory, removed with
// the database when b ends.
func newSessions(b *testing.B) *sessionsFixture {
	b.Helper()
	dir, err := os.MkdirTemp("", "bench-sessions-")
	if err != nil {
		b.Fatal(err)
	}
	// Cleanups run last first: the directory goes after the database.
	b.Cleanup(func() { _ = os.RemoveAll(dir) })
	ctx := b.Context()
	db, admin := migratedWithAdmin(b, "sqlite:"+filepath.Join(dir, "app.db"))
	keys, err := Keys()
	if err != nil {
		b.Fatal(err)
	}
	svc := sessions.New(db, sessions.Config{
		Keys:     keys,
		Issuer:   app.DefaultIssuer,
		Audience: app.DefaultAudience,
		// Longer than the service's 15 minutes, so that a long run
		// (-benchtime, -count) keeps a valid token.
		AccessTTL:  24 * time.Hour,
		RefreshTTL: app.DefaultRefreshTokenTTL,
		Logger:     slog.New(slog.DiscardHandler),
	})
	// What keeps the revocations current, until b ends.
	svc.Start(ctx)
	tok, err := svc.Begin(ctx, admin, sessions.Client{}, time.Now())
	if err != nil {
		b.Fatal(err)
	}
	return &sessionsFixture{service: svc, authorization: "Bearer " + tok.AccessToken}
}

// The admin every service benchmark logs in as.
const (
	adminEmail    = "ann@example.com"
	adminPassword = "bench-password"
)

// migratedWithAdmin opens the database at dsn as the service does, closed
// when b ends, migrates it and creates the benchmarks' admin.
func migratedWithAdmin(b *testing.B, dsn string) (*bun.DB, *models.User) {
	b.Helper()
	ctx := b.Context()
	db, err := database.Open(ctx, dsn)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = db.Close() })
	if err := migrations.Up(ctx, db); err != nil {
		b.Fatal(err)
	}
	admin, err := app.CreateUser(ctx, db, app.NewUser{
		Email: adminEmail, Name: "Ann", Password: adminPassword, Role: models.RoleAdmin,
	}, bcrypt.MinCost)
	if err != nil {
		b.Fatal(err)
	}
	return db, admin
}
