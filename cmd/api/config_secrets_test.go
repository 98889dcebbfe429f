package main

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asapjs/fiber-template/platform/token"
)

// TestLoadStableSecrets reads the secrets of the cursors and the
// idempotency fingerprints: each its own variable, else JWT_SECRET, which
// no key rotation changes; production with signing keys and neither
// refuses to start, naming what is missing, and development leaves them to
// serve.
func TestLoadStableSecrets(t *testing.T) {
	t.Parallel()
	key, err := token.GenerateEd25519()
	if err != nil {
		t.Fatal(err)
	}
	const (
		jwtSecret   = "a-production-jwt-secret-of-32-bytes!"
		cursors     = "a-production-cursor-secret-of-32-bytes"
		fingerprint = "a-production-idempotency-secret-of-32-bytes"
	)
	production := func(vars ...string) map[string]string {
		env := map[string]string{"APP_ENV": "production"}
		for i := 0; i+1 < len(vars); i += 2 {
			env[vars[i]] = vars[i+1]
		}
		return env
	}
	cases := []struct {
		name string
		env  map[string]string
		// cursors and fingerprint are the secrets wanted, or err the start
		// of the error.
		cursors, fingerprint, err string
	}{
		{"production with keys and both secrets", production("JWT_SIGNING_KEYS", string(key), "PAGING_CURSOR_SECRET", cursors, "IDEMPOTENCY_SECRET", fingerprint), cursors, fingerprint, ""},
		{"production with keys and neither", production("JWT_SIGNING_KEYS", string(key)), "", "", "PAGING_CURSOR_SECRET and IDEMPOTENCY_SECRET are required when APP_ENV=production with JWT_SIGNING_KEYS"},
		{"production with keys and the cursors' alone", production("JWT_SIGNING_KEYS", string(key), "PAGING_CURSOR_SECRET", cursors), "", "", "IDEMPOTENCY_SECRET is required"},
		{"production with keys and the fingerprints' alone", production("JWT_SIGNING_KEYS", string(key), "IDEMPOTENCY_SECRET", fingerprint), "", "", "PAGING_CURSOR_SECRET is required"},
		{"production with keys and JWT_SECRET", production("JWT_SIGNING_KEYS", string(key), "JWT_SECRET", jwtSecret), jwtSecret, jwtSecret, ""},
		{"production with keys, JWT_SECRET and a cursor secret", production("JWT_SIGNING_KEYS", string(key), "JWT_SECRET", jwtSecret, "PAGING_CURSOR_SECRET", cursors), cursors, jwtSecret, ""},
		{"production with JWT_SECRET alone", production("JWT_SECRET", jwtSecret), jwtSecret, jwtSecret, ""},
		{"production with a short cursor secret", production("JWT_SECRET", jwtSecret, "PAGING_CURSOR_SECRET", "short"), "", "", "PAGING_CURSOR_SECRET must have at least 32 bytes"},
		{"production with a short idempotency secret", production("JWT_SECRET", jwtSecret, "IDEMPOTENCY_SECRET", "short"), "", "", "IDEMPOTENCY_SECRET must have at least 32 bytes"},
		{"development with nothing set", map[string]string{}, "", "", ""},
		{"development with keys alone", map[string]string{"JWT_SIGNING_KEYS": string(key)}, "", "", ""},
		{"development with JWT_SECRET", map[string]string{"JWT_SECRET": "dev"}, "dev", "dev", ""},
		{"development with short secrets of their own", map[string]string{"PAGING_CURSOR_SECRET": "c", "IDEMPOTENCY_SECRET": "i"}, "c", "i", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg, err := loadConfig(env(tc.env))
			switch {
			case tc.err != "":
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
			case err != nil:
				t.Fatal(err)
			case string(cfg.PagingCursorSecret) != tc.cursors || string(cfg.IdempotencySecret) != tc.fingerprint:
				t.Errorf("cursor secret %q, idempotency secret %q; want %q and %q", cfg.PagingCursorSecret, cfg.IdempotencySecret, tc.cursors, tc.fingerprint)
			}
		})
	}
}

// TestDevStableSecrets fills the secrets development leaves empty: from
// the development JWT secret serve made, or else from the development
// secret file, made once, so that cursors and idempotency keys survive a
// restart and api keys rotate, which edits only the key file.
func TestDevStableSecrets(t *testing.T) {
	t.Parallel()
	logger := slog.New(slog.DiscardHandler)

	t.Run("with keys alone, both come from the secret file, the same at the next start", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "data", "dev-jwt-secret")
		var first config
		devStableSecrets(&first, path, logger)
		stored, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if want := strings.TrimSpace(string(stored)); string(first.PagingCursorSecret) != want || string(first.IdempotencySecret) != want {
			t.Fatalf("cursor secret %q, idempotency secret %q; want the file's %q", first.PagingCursorSecret, first.IdempotencySecret, want)
		}
		var again config
		devStableSecrets(&again, path, logger)
		if string(again.PagingCursorSecret) != string(first.PagingCursorSecret) || string(again.IdempotencySecret) != string(first.IdempotencySecret) {
			t.Error("the next start has other secrets")
		}
	})

	t.Run("the development JWT secret serve made comes first, and no file is made", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "dev-jwt-secret")
		cfg := config{JWTSecret: []byte("the development secret of this checkout")}
		devStableSecrets(&cfg, path, logger)
		if string(cfg.PagingCursorSecret) != string(cfg.JWTSecret) || string(cfg.IdempotencySecret) != string(cfg.JWTSecret) {
			t.Errorf("cursor secret %q, idempotency secret %q; want JWT_SECRET's", cfg.PagingCursorSecret, cfg.IdempotencySecret)
		}
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Errorf("the secret file was made: %v", err)
		}
	})

	t.Run("secrets set are kept", func(t *testing.T) {
		cfg := config{PagingCursorSecret: []byte("c"), IdempotencySecret: []byte("i"), JWTSecret: []byte("j")}
		devStableSecrets(&cfg, filepath.Join(t.TempDir(), "dev-jwt-secret"), logger)
		if string(cfg.PagingCursorSecret) != "c" || string(cfg.IdempotencySecret) != "i" {
			t.Errorf("cursor secret %q, idempotency secret %q; want c and i", cfg.PagingCursorSecret, cfg.IdempotencySecret)
		}
	})
}
