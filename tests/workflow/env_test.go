package workflow

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/asapjs/fiber-template/internal/testkit"
)

// envExampleKeys returns the variables .env.example sets.
func envExampleKeys(t *testing.T) map[string]bool {
	t.Helper()
	keys := map[string]bool{}
	for _, line := range strings.Split(readFile(t, ".env.example"), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, _, ok := strings.Cut(line, "=")
		if !ok {
			t.Errorf(".env.example: %q is not KEY=VALUE", line)
			continue
		}
		keys[key] = true
	}
	return keys
}

// configRead matches the variables the configuration of cmd/api reads.
var configRead = regexp.MustCompile(`(?:envOr\(lookupEnv, |getenv\(|lookupEnv\()"([A-Z][A-Z0-9_]*)"`)

func TestEnvExample(t *testing.T) {
	t.Parallel()
	documented := envExampleKeys(t)
	read := map[string]bool{}
	for _, m := range configRead.FindAllStringSubmatch(configSources(t), -1) {
		read[m[1]] = true
	}
	if len(read) < 5 {
		t.Fatalf("found only %v in cmd/api: the pattern no longer matches how it reads variables", sortedKeys(read))
	}

	t.Run("it documents every variable the service reads", func(t *testing.T) {
		for _, key := range sortedKeys(read) {
			if !documented[key] {
				t.Errorf(".env.example does not document %s", key)
			}
		}
	})

	t.Run("it sets no variable the service ignores", func(t *testing.T) {
		for _, key := range sortedKeys(documented) {
			if !read[key] {
				t.Errorf(".env.example sets %s, which cmd/api does not read", key)
			}
		}
	})

	t.Run("the .env it becomes is ignored by git", func(t *testing.T) {
		if !strings.Contains("\n"+readFile(t, ".gitignore")+"\n", "\n.env\n") {
			t.Error(".gitignore does not ignore .env")
		}
	})
}

// configSources returns the Go source of cmd/api, its tests left out: the
// configuration is read in config.go and in files of their own beside it
// (conns.go).
func configSources(t *testing.T) string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(testkit.RepoRoot(t), "cmd", "api", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
	}
	return b.String()
}
