package main

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/uptrace/bun"
	"golang.org/x/crypto/bcrypt"

	"github.com/asapjs/fiber-template/app"
	"github.com/asapjs/fiber-template/migrations"
	"github.com/asapjs/fiber-template/platform/servicetest"
)

// adminCreated is the message of the log line of a created bootstrap admin.
const adminCreated = "created the bootstrap admin"

// startWithAdmin builds the service as serve does, once per start, on one
// fresh SQLite database that prepare gets first (nil: none), with
// ADMIN_EMAIL and ADMIN_PASSWORD set, and returns the JSON log of each
// start.
func startWithAdmin(t *testing.T, email, password string, starts int, prepare func(context.Context, *bun.DB) error) []string {
	t.Helper()
	db := servicetest.SQLite(t)
	if err := migrations.Up(t.Context(), db); err != nil {
		t.Fatal(err)
	}
	if prepare != nil {
		if err := prepare(t.Context(), db); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := loadConfig(env(map[string]string{"ADMIN_EMAIL": email, "ADMIN_PASSWORD": password, "JWT_SECRET": "a-test-secret"}))
	if err != nil {
		t.Fatal(err)
	}
	var logs []string
	for range starts {
		out := &servicetest.Buffer{}
		opts := accountOptions(t.Context(), cfg)
		opts.BcryptCost = bcrypt.MinCost
		if _, err := app.NewWithOptions(db, routerConfig(cfg, slog.New(slog.NewJSONHandler(out, nil))), opts); err != nil {
			t.Fatalf("start: %v", err)
		}
		logs = append(logs, out.String())
	}
	return logs
}

// adminLines returns the records of log that say the admin was created.
func adminLines(t *testing.T, log string) []map[string]any {
	t.Helper()
	var found []map[string]any
	for line := range strings.Lines(log) {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if rec["msg"] == adminCreated {
			found = append(found, rec)
		}
	}
	return found
}

func TestBootstrapAdminLog(t *testing.T) {
	t.Parallel()
	const email, password = "boss@example.test", "correct-horse-battery"
	tests := []struct {
		name    string
		starts  int
		prepare func(context.Context, *bun.DB) error
		// want is how many lines each start writes about the admin.
		want []int
	}{
		{"the start that creates the admin says so", 1, nil, []int{1}},
		{"later starts find it and say nothing", 3, nil, []int{1, 0, 0}},
		{"a user with the email already there is left alone, silently", 1, func(ctx context.Context, db *bun.DB) error {
			_, err := app.CreateUser(ctx, db, app.NewUser{Email: email, Name: "Someone", Password: "another-password", Role: "member"}, bcrypt.MinCost)
			return err
		}, []int{0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			logs := startWithAdmin(t, email, password, tt.starts, tt.prepare)
			for i, log := range logs {
				if strings.Contains(log, password) {
					t.Errorf("start %d logged the password:\n%s", i+1, log)
				}
				lines := adminLines(t, log)
				if len(lines) != tt.want[i] {
					t.Errorf("start %d wrote %d lines %q, want %d; log:\n%s", i+1, len(lines), adminCreated, tt.want[i], log)
				}
				for _, rec := range lines {
					if rec["level"] != slog.LevelInfo.String() || rec["email"] != email {
						t.Errorf("start %d logged %v, want level INFO and email %s", i+1, rec, email)
					}
				}
			}
		})
	}
}
