package workflow

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asapjs/fiber-template/internal/testkit"
)

// readFile returns a file of the repository, by slash-separated path.
func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(testkit.RepoRoot(t), filepath.FromSlash(path)))
	if err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	return string(data)
}

// exists reports whether a slash-separated path exists in the repository.
func exists(t *testing.T, path string) bool {
	t.Helper()
	_, err := os.Stat(filepath.Join(testkit.RepoRoot(t), filepath.FromSlash(path)))
	return err == nil
}

// declaredTools returns the command names of the tool directives of
// go.tool.mod, keyed by name with the package path as value:
// "github.com/go-task/task/v3/cmd/task" is run as "go tool task".
func declaredTools(t *testing.T) map[string]string {
	t.Helper()
	tools := map[string]string{}
	inBlock := false
	sc := bufio.NewScanner(strings.NewReader(readFile(t, "go.tool.mod")))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if i := strings.Index(line, "//"); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		var pkg string
		switch {
		case line == "tool (":
			inBlock = true
		case inBlock && line == ")":
			inBlock = false
		case inBlock && line != "":
			pkg = line
		case strings.HasPrefix(line, "tool "):
			pkg = strings.TrimSpace(strings.TrimPrefix(line, "tool "))
		}
		if pkg != "" {
			tools[toolName(pkg)] = pkg
		}
	}
	return tools
}

// toolName is the name go tool runs a package by: its last path element,
// or the one before a major-version suffix.
func toolName(pkg string) string {
	parts := strings.Split(pkg, "/")
	name := parts[len(parts)-1]
	if len(parts) > 1 && isMajorVersion(name) {
		name = parts[len(parts)-2]
	}
	return name
}

func isMajorVersion(s string) bool {
	if len(s) < 2 || s[0] != 'v' {
		return false
	}
	for _, c := range s[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
