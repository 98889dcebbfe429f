package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDevSecret(t *testing.T) {
	t.Run("it is made once and then read back, so tokens survive a restart", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "data", "dev-jwt-secret")
		first, err := loadDevSecret(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(first) < 32 {
			t.Fatalf("secret of %d bytes, want at least 32", len(first))
		}
		again, err := loadDevSecret(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(again) != string(first) {
			t.Error("the second start made a new secret")
		}
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if perm := info.Mode().Perm(); perm != 0o600 {
			t.Errorf("the secret file has mode %o, want 600", perm)
		}
	})

	t.Run("a file too short to be a secret is refused", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "dev-jwt-secret")
		if err := os.WriteFile(path, []byte("short\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := loadDevSecret(path); err == nil {
			t.Error("a 5-character secret was accepted")
		}
	})
}
