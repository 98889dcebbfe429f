package workflow

import (
	"regexp"
	"strings"
	"testing"
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

// configRead matches the variables cmd/api/config.go reads.
var configRead = regexp.MustCompile(`(?:envOr\(lookupEnv, |getenv\(|lookupEnv\()"([A-Z][A-Z0-9_]*)"`)

func TestEnvExample(t *testing.T) {
	t.Parallel()
	documented := envExampleKeys(t)
	read := map[string]bool{}
	for _, m := range configRead.FindAllStringSubmatch(readFile(t, "cmd/api/config.go"), -1) {
		read[m[1]] = true
	}
	if len(read) < 5 {
		t.Fatalf("found only %v in cmd/api/config.go: the pattern no longer matches how it reads variables", sortedKeys(read))
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
				t.Errorf(".env.example sets %s, which cmd/api/config.go does not read", key)
			}
		}
	})

	t.Run("the .env it becomes is ignored by git", func(t *testing.T) {
		if !strings.Contains("\n"+readFile(t, ".gitignore")+"\n", "\n.env\n") {
			t.Error(".gitignore does not ignore .env")
		}
	})
}
