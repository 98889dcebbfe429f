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

	t.Run("-openapi 3.1 writes the 3.1 document; other versions are refused", func(t *testing.T) {
		t.Parallel()
		var stdout bytes.Buffer
		if err := spec(context.Background(), config{}, logger, []string{"-openapi", "3.1"}, &stdout, io.Discard); err != nil {
			t.Fatalf("spec: %v", err)
		}
		var doc specDoc
		if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil || doc.OpenAPI != "3.1.0" {
			t.Errorf("openapi = %q (%v), want 3.1.0", doc.OpenAPI, err)
		}
		if err := spec(context.Background(), config{}, logger, []string{"-openapi", "2.0"}, io.Discard, io.Discard); err == nil {
			t.Error("-openapi 2.0 was accepted")
		}
		if err := spec(context.Background(), config{}, logger, []string{"-dir", t.TempDir(), "-o", "x.json"}, io.Discard, io.Discard); err == nil {
			t.Error("-dir with -o was accepted")
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

// TestContractIsCurrent keeps the committed contract in api/ what the
// service serves: a change to a route's Go types that changes the document
// fails here until the contract is written again (and then the contract
// check compares it with the default branch's).
func TestContractIsCurrent(t *testing.T) {
	t.Parallel()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	dir := t.TempDir()
	// The environment of the test run is ignored: -dir renders the defaults.
	cfg, err := loadConfig(env(map[string]string{"BASE_PATH": "/elsewhere"}))
	if err != nil {
		t.Fatal(err)
	}
	if err := spec(context.Background(), cfg, logger, []string{"-dir", dir}, io.Discard, io.Discard); err != nil {
		t.Fatalf("spec -dir: %v", err)
	}
	for _, name := range []string{contract30, contract31} {
		want, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join("..", "..", "api", name))
		if err != nil {
			t.Fatalf("the contract api/%s: %v; write it with: task spec (go run ./cmd/api spec -dir api)", name, err)
		}
		if !bytes.Equal(got, want) {
			line := firstDifferentLine(got, want)
			t.Errorf("api/%s is not the document the service serves (first difference at line %d: committed %q, served %q); write it again with: task spec (go run ./cmd/api spec -dir api), and commit it",
				name, line.n, line.got, line.want)
		}
	}
}

// lineDiff is the first line where two texts differ.
type lineDiff struct {
	n         int
	got, want string
}

// firstDifferentLine returns the first line where got and want differ.
func firstDifferentLine(got, want []byte) lineDiff {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return lineDiff{i + 1, strings.TrimSpace(gl), strings.TrimSpace(wl)}
		}
	}
	return lineDiff{}
}
