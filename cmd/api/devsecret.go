package main

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
)

// devSecretFile holds the development JWT secret, under the directory of
// the default SQLite file: made once, it keeps tokens valid across the
// restarts of `task dev`, so the token the docs UI remembers still works
// after an edit. It is never read with APP_ENV=production.
const devSecretFile = "data/dev-jwt-secret"

// loadDevSecret returns the secret stored at path, creating the file with a
// new random secret (mode 0600) when it does not exist yet.
func loadDevSecret(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	switch {
	case err == nil:
		secret := strings.TrimSpace(string(data))
		if len(secret) < 32 {
			return nil, fmt.Errorf("%s holds %d characters, want at least 32: delete it to make a new one", path, len(secret))
		}
		return []byte(secret), nil
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("read development secret: %w", err)
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return nil, fmt.Errorf("generate development secret: %w", err)
	}
	secret := base64.RawURLEncoding.EncodeToString(raw)
	err = writeNew(path, []byte(secret+"\n"))
	if errors.Is(err, fs.ErrExist) {
		return loadDevSecret(path)
	}
	if err != nil {
		return nil, fmt.Errorf("store development secret: %w", err)
	}
	return []byte(secret), nil
}

// writeNew writes data to path (mode 0600, its directory made 0700) unless
// the file exists, which is fs.ErrExist: of two processes starting at once,
// one writes and the other reads what it wrote.
func writeNew(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// devStableSecrets fills the cursor and idempotency secrets that are still
// empty, which only development leaves so (loadStableSecrets), with the
// development secret: JWTSecret when serve made it from devSecretFile, or
// else the secret stored at path (made once, as loadDevSecret does), which
// api keys rotate never touches. When the file is unusable, a random secret
// lasts this run.
func devStableSecrets(cfg *config, path string, logger *slog.Logger) {
	if len(cfg.PagingCursorSecret) > 0 && len(cfg.IdempotencySecret) > 0 {
		return
	}
	secret := cfg.JWTSecret
	if len(secret) == 0 {
		var err error
		if secret, err = loadDevSecret(path); err != nil {
			logger.Warn("PAGING_CURSOR_SECRET, IDEMPOTENCY_SECRET and JWT_SECRET are not set and the development secret file is unusable: cursors and idempotency keys will not survive a restart", slog.Any("error", err))
			secret = make([]byte, 32)
			_, _ = rand.Read(secret)
		}
	}
	for _, s := range []*[]byte{&cfg.PagingCursorSecret, &cfg.IdempotencySecret} {
		if len(*s) == 0 {
			*s = secret
		}
	}
}
