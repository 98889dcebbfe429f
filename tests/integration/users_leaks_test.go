package integration

import (
	"slices"
	"testing"

	"github.com/golang-jwt/jwt/v5"
)

// TestLeakScan checks the scan every response of the users suite goes
// through, so that a clean suite means clean responses.
func TestLeakScan(t *testing.T) {
	t.Parallel()
	words := append(slices.Clone(leakWords), "hunter2-password")
	tokenWith := func(sub string) string {
		return mintToken(t, userTestSecret, &jwt.RegisteredClaims{Subject: sub})
	}
	tests := []struct {
		name string
		body string
		want []string
	}{
		{"a clean user has no leak", `{"id":1,"email":"ada@example.com","name":"Ada"}`, nil},
		{"a bcrypt hash is a leak", `{"hash":"$2a$04$abcdefghijklmnopqrstuv"}`, []string{"$2a$"}},
		{"the hash column is a leak, case aside", `{"Password_Hash":"x"}`, []string{"password_hash"}},
		{"a driver error is a leak", `{"detail":"ERROR: duplicate key (SQLSTATE 23505)"}`, []string{"SQLSTATE"}},
		{"a SQLite error is a leak", `{"detail":"SQLite: UNIQUE constraint failed"}`, []string{"sqlite"}},
		{"a stack trace is a leak", `{"detail":"goroutine 1 [running]"}`, []string{"goroutine"}},
		{"a password sent before is a leak", `{"name":"hunter2-password"}`, []string{"hunter2-password"}},
		{"a clean token has no leak", `{"access_token":"` + tokenWith("1") + `"}`, nil},
		{"a token whose claims hold a password leaks it", `{"access_token":"` + tokenWith("hunter2-password") + `"}`, []string{"hunter2-password"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := leaks([]byte(tt.body), words); !slices.Equal(got, tt.want) {
				t.Errorf("leaks(%s) = %q, want %q", tt.body, got, tt.want)
			}
		})
	}
}
