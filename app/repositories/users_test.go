package repositories_test

import (
	"context"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/app/models"
	"github.com/asapjs/fiber-template/app/repositories"
	"github.com/asapjs/fiber-template/migrations"
	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/paging"
	"github.com/asapjs/fiber-template/platform/servicetest"
)

// selects keeps the text of every SELECT a database runs.
type selects struct{ texts []string }

func (*selects) BeforeQuery(ctx context.Context, _ *bun.QueryEvent) context.Context { return ctx }

func (s *selects) AfterQuery(_ context.Context, e *bun.QueryEvent) {
	if strings.HasPrefix(e.Query, "SELECT") {
		s.texts = append(s.texts, e.Query)
	}
}

// TestAListReadsOnlyWhatAPageShows: the users list reads the columns its
// items show and the version, never a password hash or the sessions'
// columns, and still fills every field the page's items carry.
func TestAListReadsOnlyWhatAPageShows(t *testing.T) {
	ctx := t.Context()
	db := servicetest.SQLite(t)
	if err := migrations.Up(ctx, db); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	cursors, err := paging.NewCursors([]byte("test secret"))
	if err != nil {
		t.Fatal(err)
	}
	u := &models.User{Email: "ada@example.com", Name: "Ada", PasswordHash: "secret hash", Role: models.RoleMember, Active: true}
	if err := repositories.NewUsers(db).Create(ctx, u); err != nil {
		t.Fatalf("create: %v", err)
	}
	seen := &selects{}
	users := repositories.NewUsers(db.WithQueryHook(seen), database.WithCursors(cursors))

	page, err := users.List(ctx, repositories.UserFilter{}, paging.Paging{Limit: 10}, nil, "")
	if err != nil {
		t.Fatalf("list: %v", err)
	}
	if len(page.Data) != 1 {
		t.Fatalf("listed %d users, want 1", len(page.Data))
	}
	got := page.Data[0]
	if got.ID != u.ID || got.Email != u.Email || got.Name != u.Name || got.Role != u.Role || !got.Active ||
		!got.CreatedAt.Equal(u.CreatedAt) || got.Version != u.Version || got.Version == 0 {
		t.Errorf("listed %+v, want the fields of %+v", got, u)
	}
	if got.PasswordHash != "" {
		t.Errorf("the list read the password hash %q", got.PasswordHash)
	}
	var read bool
	for _, q := range seen.texts {
		if !strings.Contains(q, `FROM "users"`) || strings.Contains(q, "count(") {
			continue
		}
		read = true
		for _, col := range []string{"password_hash", "session_epoch", "sessions_ended_at"} {
			if strings.Contains(q, col) {
				t.Errorf("the list's query reads %s: %s", col, q)
			}
		}
	}
	if !read {
		t.Fatalf("no page query among %q", seen.texts)
	}
}
