package main

import (
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseDotenv(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		input string
		want  map[string]string
	}{
		{"an empty file sets nothing", "", map[string]string{}},
		{"a plain pair is read", "PORT=9090\n", map[string]string{"PORT": "9090"}},
		{"blank lines and comments are skipped", "\n# the port\n   # indented comment\nPORT=9090\n\n", map[string]string{"PORT": "9090"}},
		{"spaces around the key and value are trimmed", "  PORT =  9090  \n", map[string]string{"PORT": "9090"}},
		{"an export prefix is dropped", "export APP_ENV=production\n", map[string]string{"APP_ENV": "production"}},
		{"an empty value is kept as empty", "BASE_PATH=\n", map[string]string{"BASE_PATH": ""}},
		{"an unquoted value ends at a comment", "LOG_LEVEL=debug # noisy\n", map[string]string{"LOG_LEVEL": "debug"}},
		{"a # inside an unquoted value is kept", "JWT_SECRET=abc#def\n", map[string]string{"JWT_SECRET": "abc#def"}},
		{"the first = splits key from value", "DATABASE_URL=postgres://u:p@h/db?sslmode=disable&a=b\n", map[string]string{"DATABASE_URL": "postgres://u:p@h/db?sslmode=disable&a=b"}},
		{"double quotes keep spaces and #", `DOCS_USERS="ann:a b#c" # comment` + "\n", map[string]string{"DOCS_USERS": "ann:a b#c"}},
		{"double quotes understand escapes", `MSG="a\"b\\c\nd\te\x"` + "\n", map[string]string{"MSG": "a\"b\\c\nd\te\\x"}},
		{"single quotes are literal", `MSG='a\nb "c"'` + "\n", map[string]string{"MSG": `a\nb "c"`}},
		{"a later line for the same key wins", "PORT=1\nPORT=2\n", map[string]string{"PORT": "2"}},
		{"Windows line endings are accepted", "PORT=9090\r\nHOST=127.0.0.1\r\n", map[string]string{"PORT": "9090", "HOST": "127.0.0.1"}},
		{"a byte order mark is ignored", "\uFEFFPORT=9090\n", map[string]string{"PORT": "9090"}},
		{"a last line without newline is read", "PORT=9090", map[string]string{"PORT": "9090"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := parseDotenv(strings.NewReader(tt.input))
			if err != nil {
				t.Fatalf("parseDotenv: %v", err)
			}
			if !maps.Equal(got, tt.want) {
				t.Errorf("parseDotenv = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestParseDotenvRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		input   string
		wantErr string
	}{
		{"a line without =", "# ok\nPORT 9090\n", "line 2: want KEY=VALUE"},
		{"an empty key", "=9090\n", `line 1: "" is not a variable name`},
		{"a key with a dash", "MY-PORT=9090\n", `"MY-PORT" is not a variable name`},
		{"a key starting with a digit", "1PORT=9090\n", `"1PORT" is not a variable name`},
		{"an unclosed double quote", `JWT_SECRET="abc` + "\n", `line 1: JWT_SECRET: missing closing "`},
		{"an unclosed single quote", `JWT_SECRET='abc` + "\n", `missing closing '`},
		{"text after a closing quote", `JWT_SECRET="abc" def` + "\n", `unexpected "def" after the closing quote`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := parseDotenv(strings.NewReader(tt.input))
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("parseDotenv error = %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestWithDotenv(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, ".env")
	if err := os.WriteFile(path, []byte("PORT=9090\nHOST=127.0.0.1\nBASE_PATH=/v1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	environ := env(map[string]string{"PORT": "8081", "BASE_PATH": ""})

	lookup, err := withDotenv(path, environ)
	if err != nil {
		t.Fatalf("withDotenv: %v", err)
	}
	for _, tt := range []struct {
		name, key, want string
		wantOK          bool
	}{
		{"the environment wins over the file", "PORT", "8081", true},
		{"an empty variable of the environment still wins", "BASE_PATH", "", true},
		{"the file fills what the environment lacks", "HOST", "127.0.0.1", true},
		{"a variable in neither stays unset", "JWT_SECRET", "", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := lookup(tt.key)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("lookup(%s) = %q, %v; want %q, %v", tt.key, got, ok, tt.want, tt.wantOK)
			}
		})
	}

	t.Run("a missing file changes nothing", func(t *testing.T) {
		lookup, err := withDotenv(filepath.Join(dir, "absent.env"), environ)
		if err != nil {
			t.Fatalf("withDotenv: %v", err)
		}
		if _, ok := lookup("HOST"); ok {
			t.Error("HOST is set without a file")
		}
	})

	t.Run("a malformed file is an error naming the file and line", func(t *testing.T) {
		bad := filepath.Join(dir, "bad.env")
		if err := os.WriteFile(bad, []byte("PORT=1\nnonsense\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := withDotenv(bad, environ)
		if err == nil || !strings.Contains(err.Error(), "bad.env: line 2") {
			t.Fatalf("withDotenv error = %v, want one naming bad.env: line 2", err)
		}
	})
}

func TestEnvExampleLoads(t *testing.T) {
	t.Parallel()
	// .env.example is what "cp .env.example .env" gives a new service: it
	// must parse, and its defaults must make a configuration that starts.
	lookup, err := withDotenv(filepath.Join("..", "..", ".env.example"), env(nil))
	if err != nil {
		t.Fatalf("withDotenv: %v", err)
	}
	cfg, err := loadConfig(lookup)
	if err != nil {
		t.Fatalf("loadConfig from .env.example: %v", err)
	}
	if cfg.Port != 8080 || cfg.BasePath != "/api" || cfg.DatabaseURL != "" || cfg.Env != "development" {
		t.Errorf("config from .env.example = port %d, base path %q, database %q, env %q; want the defaults",
			cfg.Port, cfg.BasePath, cfg.DatabaseURL, cfg.Env)
	}
}
