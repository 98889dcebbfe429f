package main

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestUsersCreateOnANewDatabase(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		env     map[string]string
		want    string // in the output, or in the error when wantErr
		wantErr bool
	}{
		{"the migrations are applied first", nil, "created user 1 (a@example.com, admin)", false},
		{"not with MIGRATE_ON_START=false", map[string]string{"MIGRATE_ON_START": "false"}, "no such table: users", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			pairs := map[string]string{"DATABASE_URL": "sqlite:" + filepath.Join(t.TempDir(), "app.db"), "JWT_SECRET": "test-secret"}
			for k, v := range tt.env {
				pairs[k] = v
			}
			var out strings.Builder
			// As the README runs it: printf '%s\n' 'change-me-now-2' | go run ./cmd/api users create …
			err := dispatch(t.Context(), []string{"users", "create", "--email", "a@example.com", "--name", "Ada", "--role", "admin"}, env(pairs),
				stdio{in: strings.NewReader("change-me-now-2\n"), out: &out, err: &strings.Builder{}})
			switch {
			case tt.wantErr && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("error %v, want one containing %q", err, tt.want)
			case !tt.wantErr && err != nil:
				t.Fatal(err)
			case !tt.wantErr && !strings.Contains(out.String(), tt.want):
				t.Errorf("users create wrote %q, want %q", out.String(), tt.want)
			}
		})
	}
}
