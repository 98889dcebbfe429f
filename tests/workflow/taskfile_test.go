package workflow

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/asapjs/fiber-template/internal/testkit"
)

// taskfile is the part of Taskfile.yml the tests read.
type taskfile struct {
	Version string                  `yaml:"version"`
	Tasks   map[string]taskfileTask `yaml:"tasks"`
}

type taskfileTask struct {
	Desc string `yaml:"desc"`
	// Cmds holds strings, or maps with a cmd or task key.
	Cmds []any `yaml:"cmds"`
}

// commands returns the shell commands of the task, in order.
func (tk taskfileTask) commands() []string {
	var out []string
	for _, c := range tk.Cmds {
		switch c := c.(type) {
		case string:
			out = append(out, c)
		case map[string]any:
			if cmd, ok := c["cmd"].(string); ok {
				out = append(out, cmd)
			}
		}
	}
	return out
}

func loadTaskfile(t *testing.T) taskfile {
	t.Helper()
	var tf taskfile
	if err := yaml.Unmarshal([]byte(readFile(t, "Taskfile.yml")), &tf); err != nil {
		t.Fatalf("Taskfile.yml is not YAML: %v", err)
	}
	return tf
}

var (
	// goToolRun matches a pinned tool run: go tool -modfile=go.tool.mod NAME.
	goToolRun = regexp.MustCompile(`go tool -modfile=go\.tool\.mod (?:-n )?([A-Za-z][\w.-]*)`)
	// anyGoTool matches every go tool run, pinned or not.
	anyGoTool = regexp.MustCompile(`go tool (\S+)`)
	// localPath matches a ./path argument, such as ./... or ./cmd/api.
	localPath = regexp.MustCompile(`(?:^|\s)(\./[^\s'"|;&)]*)`)
	// apiSubcommand matches go run ./cmd/api SUBCOMMAND.
	apiSubcommand = regexp.MustCompile(`go run \./cmd/api(?:\s+([a-z]+))?`)
)

func TestTaskfile(t *testing.T) {
	t.Parallel()
	tf := loadTaskfile(t)

	t.Run("it uses the version 3 schema", func(t *testing.T) {
		if tf.Version != "3" {
			t.Errorf("version = %q, want '3'", tf.Version)
		}
	})

	t.Run("it has the daily tasks", func(t *testing.T) {
		for _, name := range []string{
			"dev", "run", "test", "test:integration", "test:e2e", "bench", "lint", "fmt", "build",
			"migrate:up", "migrate:down", "migrate:status", "migrate:new", "spec",
			"docker:build", "compose:up", "compose:down",
		} {
			if _, ok := tf.Tasks[name]; !ok {
				t.Errorf("no task %q", name)
			}
		}
	})

	t.Run("every task says what it does", func(t *testing.T) {
		for name, tk := range tf.Tasks {
			if strings.TrimSpace(tk.Desc) == "" {
				t.Errorf("task %q has no desc", name)
			}
		}
	})

	t.Run("task test is the README's test command", func(t *testing.T) {
		// go test ./..., run as it is or through the pinned gotestsum,
		// which hands what follows -- to go test.
		got := tf.Tasks["test"].commands()
		viaGotestsum := len(got) == 1 && strings.HasPrefix(got[0], "go tool -modfile=go.tool.mod gotestsum ") && strings.HasSuffix(got[0], " -- ./...")
		if !slices.Equal(got, []string{"go test ./..."}) && !viaGotestsum {
			t.Errorf("task test runs %q, want exactly go test ./..., or gotestsum -- ./...", got)
		}
	})

	t.Run("task test:e2e runs every browser test and nothing else", func(t *testing.T) {
		want := "go test -run '^TestBrowser' ./..."
		if got := tf.Tasks["test:e2e"].commands(); !slices.Equal(got, []string{want}) {
			t.Fatalf("task test:e2e runs %q, want %q", got, want)
		}
		browserTests := testsCalling(t, "browsertest", "Browser")
		if len(browserTests) == 0 {
			t.Fatal("found no test that calls browsertest.Browser")
		}
		for _, name := range browserTests {
			if !strings.HasPrefix(name, "TestBrowser") {
				t.Errorf("%s drives a browser but is not named TestBrowser…, so task test:e2e misses it", name)
			}
		}
	})

	t.Run("task build builds as the Dockerfile does", func(t *testing.T) {
		cmds := strings.Join(tf.Tasks["build"].commands(), "\n")
		for _, want := range []string{"-trimpath", "./cmd/api", "-o bin/api"} {
			if !strings.Contains(cmds, want) {
				t.Errorf("task build lacks %s: %s", want, cmds)
			}
		}
		if !strings.Contains(readFile(t, "Taskfile.yml"), "CGO_ENABLED: '0'") {
			t.Error("task build does not set CGO_ENABLED to 0")
		}
	})

	t.Run("every ./path it names exists", func(t *testing.T) {
		forEachCommand(tf, func(task, cmd string) {
			// go -C dir runs in dir: its ./paths are under it.
			dir := "."
			if m := goDirFlag.FindStringSubmatch(cmd); m != nil {
				dir = m[1]
			}
			for _, m := range localPath.FindAllStringSubmatch(cmd, -1) {
				path := strings.TrimSuffix(strings.TrimSuffix(m[1], "..."), "/")
				if path == "." {
					continue
				}
				path = filepath.ToSlash(filepath.Join(dir, path))
				if !exists(t, path) {
					t.Errorf("task %q names %s, which does not exist", task, m[1])
				} else if strings.HasSuffix(m[1], "/...") && !hasGoFiles(t, path) {
					t.Errorf("task %q names %s, which holds no Go package", task, m[1])
				}
			}
		})
	})

	t.Run("every go run ./cmd/api subcommand is one the command dispatches", func(t *testing.T) {
		main := readFile(t, "cmd/api/main.go")
		forEachCommand(tf, func(task, cmd string) {
			for _, m := range apiSubcommand.FindAllStringSubmatch(cmd, -1) {
				if m[1] != "" && !strings.Contains(main, fmt.Sprintf("%q", m[1])) {
					t.Errorf("task %q runs api %s, which cmd/api/main.go does not dispatch", task, m[1])
				}
			}
		})
	})

	t.Run("every tool it runs is pinned in go.tool.mod", func(t *testing.T) {
		tools := declaredTools(t)
		forEachCommand(tf, func(task, cmd string) {
			for _, m := range anyGoTool.FindAllStringSubmatch(cmd, -1) {
				if m[1] != "-modfile=go.tool.mod" {
					t.Errorf("task %q runs go tool %s without -modfile=go.tool.mod", task, m[1])
				}
			}
			for _, m := range goToolRun.FindAllStringSubmatch(cmd, -1) {
				if _, ok := tools[m[1]]; !ok {
					t.Errorf("task %q runs tool %q, which go.tool.mod does not declare (it has %v)", task, m[1], sortedKeys(tools))
				}
			}
		})
	})

	t.Run("task tools installs every pinned tool and builds go tool's copies", func(t *testing.T) {
		cmds := tf.Tasks["tools"].commands()
		// The tool pattern is every tool go.tool.mod declares, installed
		// into GOBIN, so that task itself is on PATH afterwards.
		if !slices.Contains(cmds, "go install -modfile=go.tool.mod tool") {
			t.Errorf("task tools runs %q, none of which is go install -modfile=go.tool.mod tool", cmds)
		}
		// The tasks run the tools through go tool, which keeps builds of
		// its own: each tool the listing names is built with -n.
		const listing = "$(go tool -modfile=go.tool.mod | grep /)"
		prime := slices.IndexFunc(cmds, func(c string) bool {
			return strings.Contains(c, listing) && strings.Contains(c, `go tool -modfile=go.tool.mod -n "$tool"`)
		})
		if prime < 0 {
			t.Fatalf("task tools runs %q, none of which builds go tool's copy of each tool in %s", cmds, listing)
		}
		var listed []string
		for line := range strings.Lines(testkit.Go(t, testkit.RepoRoot(t), nil, "tool", "-modfile=go.tool.mod")) {
			if line = strings.TrimSpace(line); strings.Contains(line, "/") {
				listed = append(listed, line)
			}
		}
		slices.Sort(listed)
		pinned := slices.Sorted(maps.Values(declaredTools(t)))
		if !slices.Equal(listed, pinned) {
			t.Errorf("%s lists %v, go.tool.mod pins %v", listing, listed, pinned)
		}
	})

	t.Run("task migrate:new passes its NAME to migrate new", func(t *testing.T) {
		if got, want := tf.Tasks["migrate:new"].commands(), []string{"go run ./cmd/api migrate new {{.CLI_ARGS}}"}; !slices.Equal(got, want) {
			t.Errorf("task migrate:new runs %q, want %q", got, want)
		}
	})

	t.Run("the files it relies on exist", func(t *testing.T) {
		for _, path := range []string{"go.tool.mod", "go.tool.sum", ".air.toml", "Dockerfile", "docker-compose.yml"} {
			if !exists(t, path) {
				t.Errorf("%s is missing", path)
			}
		}
	})
}

func TestToolModfile(t *testing.T) {
	t.Parallel()
	tools := declaredTools(t)
	for _, name := range []string{"task", "air", "staticcheck", "benchstat", "oapi-codegen"} {
		if _, ok := tools[name]; !ok {
			t.Errorf("go.tool.mod declares no tool %q (it has %v)", name, sortedKeys(tools))
		}
	}
	if mod := readFile(t, "go.mod"); strings.Contains(mod, "\ntool") {
		t.Error("go.mod declares tools: they belong in go.tool.mod, so that the service's go.mod stays its own")
	}
}

func TestAirConfig(t *testing.T) {
	t.Parallel()
	air := readFile(t, ".air.toml")
	for _, want := range []string{`cmd = "go build -o ./tmp/api ./cmd/api"`, `"./tmp/api"`, `exclude_regex = ["_test\\.go$"]`} {
		if !strings.Contains(air, want) {
			t.Errorf(".air.toml lacks %s", want)
		}
	}
}

func forEachCommand(tf taskfile, f func(task, cmd string)) {
	for _, name := range sortedKeys(tf.Tasks) {
		for _, cmd := range tf.Tasks[name].commands() {
			f(name, cmd)
		}
	}
}

// hasGoFiles reports whether dir or a directory below it holds a .go file.
func hasGoFiles(t *testing.T, dir string) bool {
	t.Helper()
	found := false
	_ = filepath.WalkDir(filepath.Join(testkit.RepoRoot(t), filepath.FromSlash(dir)), func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") {
			found = true
			return filepath.SkipAll
		}
		return nil
	})
	return found
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// testsCalling returns the Test functions of the repository's test files
// whose bodies call pkg.fn, as "TestName (file)".
// goDirFlag finds the directory of a go -C command.
var goDirFlag = regexp.MustCompile(`\bgo -C (\S+)`)

func testsCalling(t *testing.T, pkg, fn string) []string {
	t.Helper()
	var found []string
	fset := token.NewFileSet()
	root := testkit.RepoRoot(t)
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		// browsertest's own tests call Browser with a stand-in for t.
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "browsertest" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil || !strings.HasPrefix(fd.Name.Name, "Test") {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if ok && sel.Sel.Name == fn {
					if id, ok := sel.X.(*ast.Ident); ok && id.Name == pkg {
						found = append(found, fd.Name.Name)
						return false
					}
				}
				return true
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return slices.Compact(slices.Sorted(slices.Values(found)))
}
