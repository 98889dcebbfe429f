package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// specDoc is the part of the document the tests look at.
type specDoc struct {
	OpenAPI string                     `json:"openapi"`
	Paths   map[string]json.RawMessage `json:"paths"`
}

func TestSpec(t *testing.T) {
	t.Parallel()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))

	t.Run("it writes the document to stdout without any database set up", func(t *testing.T) {
		t.Parallel()
		cfg, err := loadConfig(env(map[string]string{"DATABASE_URL": "postgres://nobody@127.0.0.1:1/none"}))
		if err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		if err := spec(context.Background(), cfg, logger, nil, &stdout, &stderr); err != nil {
			t.Fatalf("spec: %v (stderr: %s)", err, stderr.String())
		}
		doc := decodeSpec(t, stdout.Bytes())
		if _, ok := doc.Paths["/health-check"]; !ok {
			t.Errorf("paths lack /health-check: %v", keys(doc.Paths))
		}
		if !hasPrefixed(doc.Paths, "/api/") {
			t.Errorf("no path under the default base path /api: %v", keys(doc.Paths))
		}
	})

	t.Run("it writes the file named by -o and follows BASE_PATH", func(t *testing.T) {
		t.Parallel()
		cfg, err := loadConfig(env(map[string]string{"BASE_PATH": "/v2"}))
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), "spec.json")
		var stdout bytes.Buffer
		if err := spec(context.Background(), cfg, logger, []string{"-o", out}, &stdout, io.Discard); err != nil {
			t.Fatalf("spec: %v", err)
		}
		if stdout.Len() != 0 {
			t.Errorf("stdout got %d bytes, want none with -o", stdout.Len())
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		doc := decodeSpec(t, data)
		if !hasPrefixed(doc.Paths, "/v2/") || hasPrefixed(doc.Paths, "/api/") {
			t.Errorf("paths do not follow BASE_PATH=/v2: %v", keys(doc.Paths))
		}
	})

	t.Run("it refuses stray arguments", func(t *testing.T) {
		t.Parallel()
		err := spec(context.Background(), config{}, logger, []string{"spec.json"}, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), "unexpected argument") {
			t.Errorf("spec error = %v, want one about an unexpected argument", err)
		}
	})
}

func decodeSpec(t *testing.T, data []byte) specDoc {
	t.Helper()
	var doc specDoc
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("the document is not JSON: %v", err)
	}
	if doc.OpenAPI != "3.0.0" {
		t.Errorf("openapi = %q, want 3.0.0", doc.OpenAPI)
	}
	return doc
}

func hasPrefixed(paths map[string]json.RawMessage, prefix string) bool {
	for p := range paths {
		if strings.HasPrefix(p, prefix) {
			return true
		}
	}
	return false
}

func keys(m map[string]json.RawMessage) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestSpecIsQuiet(t *testing.T) {
	t.Parallel()
	cfg, err := loadConfig(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, nil))
	if err := spec(context.Background(), cfg, logger, nil, io.Discard, io.Discard); err != nil {
		t.Fatalf("spec: %v", err)
	}
	if logs.Len() != 0 {
		t.Errorf("spec logged serving warnings:\n%s", logs.String())
	}
}
