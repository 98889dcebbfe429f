package integration

import (
	"context"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/asapjs/fiber-template/app"
	"github.com/asapjs/fiber-template/migrations"
	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/router"
)

func TestUserMigrations(t *testing.T) {
	forEachUserBackend(t, testUserMigrations)
}

func testUserMigrations(t *testing.T, newDSN func(*testing.T) string) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	db, err := database.Open(ctx, newDSN(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	r, err := app.NewWithOptions(db, router.Config{
		BasePath:  "/api",
		JWTSecret: userTestSecret,
		// The 500 below is expected; its cause is logged, not shown.
		Logger: slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelError + 1})),
	}, app.Options{BcryptCost: bcrypt.MinCost})
	if err != nil {
		t.Fatal(err)
	}
	a := &userAPI{r: r, db: db, passwords: map[string]bool{}}
	signUp := req{method: http.MethodPost, path: "/api/users",
		body: map[string]any{"email": "first@example.com", "name": "First", "password": "migration-pass-1"}}

	t.Run("before the migrations a sign-up answers a 500 problem that names no table or driver", func(t *testing.T) {
		res := a.send(t, signUp)
		res.wantProblem(t, http.StatusInternalServerError)
		res.wantHidden(t, "users", "relation", "no such table", "does not exist")
	})
	t.Run("Up creates the users table and a second Up has nothing to do", func(t *testing.T) {
		for range 2 {
			if err := migrations.Up(ctx, db); err != nil {
				t.Fatal(err)
			}
		}
		a.send(t, signUp).wantUser(t, http.StatusCreated)
	})
	t.Run("Rollback drops the table and Up makes it again, empty", func(t *testing.T) {
		group, err := migrations.Rollback(ctx, migrations.NewMigrator(db))
		if err != nil {
			t.Fatal(err)
		}
		if group.IsZero() {
			t.Fatal("Rollback rolled back nothing")
		}
		a.send(t, signUp).wantProblem(t, http.StatusInternalServerError)
		if err := migrations.Up(ctx, db); err != nil {
			t.Fatal(err)
		}
		if u := a.send(t, signUp).wantUser(t, http.StatusCreated); u.Email != "first@example.com" {
			t.Errorf("signed up %+v", u)
		}
	})
}
