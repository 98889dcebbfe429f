package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asapjs/fiber-template/platform/token"
)

func TestLoadTokenKeys(t *testing.T) {
	t.Parallel()
	key, err := token.GenerateEd25519()
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "keys.pem")
	if err := os.WriteFile(file, key, 0o600); err != nil {
		t.Fatal(err)
	}
	const secret = "a-production-secret-of-32-bytes!!"
	cases := []struct {
		name string
		env  map[string]string
		// want is the mode, or the start of the error.
		keys, secret bool
		err          string
	}{
		{"production with keys and no secret", map[string]string{"APP_ENV": "production", "JWT_SIGNING_KEYS": string(key)}, true, false, ""},
		{"production with a key file", map[string]string{"APP_ENV": "production", "JWT_SIGNING_KEYS_FILE": file}, true, false, ""},
		{"production with a secret", map[string]string{"APP_ENV": "production", "JWT_SECRET": secret}, false, true, ""},
		{"production with neither", map[string]string{"APP_ENV": "production"}, false, false, "JWT_SIGNING_KEYS (or JWT_SIGNING_KEYS_FILE) or JWT_SECRET is required"},
		{"production with a short secret", map[string]string{"APP_ENV": "production", "JWT_SECRET": "short"}, false, false, "JWT_SECRET must have at least 32 bytes"},
		{"both key variables", map[string]string{"JWT_SIGNING_KEYS": string(key), "JWT_SIGNING_KEYS_FILE": file}, false, false, "set JWT_SIGNING_KEYS or JWT_SIGNING_KEYS_FILE, not both"},
		{"keys that are not keys", map[string]string{"JWT_SIGNING_KEYS": "not a key"}, false, false, "JWT_SIGNING_KEYS:"},
		{"a key file that is missing", map[string]string{"JWT_SIGNING_KEYS_FILE": file + ".missing"}, false, false, "JWT_SIGNING_KEYS_FILE:"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := loadConfig(env(tc.env))
			switch {
			case tc.err != "":
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
			case err != nil:
				t.Fatal(err)
			case (cfg.TokenKeys != nil) != tc.keys || (len(cfg.JWTSecret) > 0) != tc.secret || cfg.devKeys:
				t.Errorf("keys %v, secret %d bytes, dev keys %v; want keys %v, secret %v", cfg.TokenKeys != nil, len(cfg.JWTSecret), cfg.devKeys, tc.keys, tc.secret)
			}
		})
	}
}

func TestKeysCommand(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "keys.pem")
	run := func(args ...string) (string, error) {
		return dispatchOut(t, append([]string{"keys"}, args...), map[string]string{"JWT_SIGNING_KEYS_FILE": file})
	}
	key, err := run("generate")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(key), 0o600); err != nil {
		t.Fatal(err)
	}
	list, err := run("list")
	if err != nil || strings.Count(list, "\n") != 1 || !strings.HasSuffix(list, "\tsigns\n") {
		t.Fatalf("list: %q %v", list, err)
	}
	first := strings.Fields(list)[0]
	rotated, err := run("rotate")
	if err != nil || !strings.HasSuffix(rotated, first+"\tverifies\n") || strings.HasPrefix(rotated, first) {
		t.Fatalf("rotate: %q %v; want a new signing key, then %s", rotated, err, first)
	}
	second := strings.Fields(rotated)[0]
	if _, err := run("retire", second); err == nil || !strings.Contains(err.Error(), "is the signing key") {
		t.Errorf("retiring the signing key: %v, want refused", err)
	}
	if _, err := run("retire", "no-such-kid"); err == nil {
		t.Error("retiring an unknown kid succeeded")
	}
	if retired, err := run("retire", first); err != nil || retired != second+"\tsigns\n" {
		t.Errorf("retire the old key: %q %v", retired, err)
	}
	info, err := os.Stat(file)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("the key file after the edits: %v, mode %v; want 0600", err, info.Mode())
	}
	if _, err := run("frobnicate"); err == nil {
		t.Error("an unknown subcommand succeeded")
	}
}

func TestKeysRetireTakesAKidBeginningWithADash(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "keys.pem")
	run := func(args ...string) (string, error) {
		return dispatchOut(t, append([]string{"keys"}, args...), map[string]string{"JWT_SIGNING_KEYS_FILE": file})
	}
	signing, err := run("generate")
	if err != nil {
		t.Fatal(err)
	}
	// A kid is base64url: about one key in 64 has one that begins with "-".
	var dashed, kid string
	for range 2000 {
		key, err := run("generate")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(key), 0o600); err != nil {
			t.Fatal(err)
		}
		list, err := run("list")
		if err != nil {
			t.Fatal(err)
		}
		if id := strings.Fields(list)[0]; strings.HasPrefix(id, "-") {
			dashed, kid = key, id
			break
		}
	}
	if kid == "" {
		t.Fatal("no kid beginning with - in 2000 keys")
	}
	for _, args := range [][]string{{"retire", kid}, {"retire", kid, "-file", file}, {"retire", "--", kid}} {
		if err := os.WriteFile(file, []byte(signing+dashed), 0o600); err != nil {
			t.Fatal(err)
		}
		left, err := run(args...)
		if err != nil || strings.Contains(left, kid) || strings.Count(left, "\n") != 1 {
			t.Errorf("keys %q: %q %v; want the key retired, the signing one left", args, left, err)
		}
	}
}
