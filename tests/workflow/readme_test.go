package workflow

import (
	"bufio"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/modfile"

	"github.com/asapjs/fiber-template/internal/changelog"
	"github.com/asapjs/fiber-template/internal/testkit"
)

// followREADME turns on TestReadmeStartsANewService, which runs the
// README's "Start a new service" block, its go test ./... included, once
// a shell: .ci/run sets it in a step of its own, as it does FRESH_CLONE.
const followREADME = "FOLLOW_README"

// startHeading is the README section whose ```sh blocks a newcomer follows
// to start a service: the first with the platform vendored, the second
// with it a library (rename --library).
const startHeading = "## Start a new service"

// libraryFlag is the starter rename's switch that makes the platform a
// library: the block whose rename has it is the library block.
const libraryFlag = "--library"

// TestReadmeStartsANewService follows the README's "Start a new service"
// blocks to the letter, as a newcomer does on a fresh clone: each line
// through sh -c, and again through zsh -c, in a copy of the repository
// (the clone line's git clone copies the work tree instead, to the
// directory it names; its cd is honoured), with CI unset, so that the
// block's own go test ./... runs as on a newcomer's machine. It must pass
// in both shells, for the vendored block (subtests "in sh", "in zsh") and
// for the library block ("library in sh", "library in zsh"; one alone:
// -run 'TestReadmeStartsANewService/^library_in_sh$'). The template's
// platform is on no public proxy from here: the library block runs with a
// file GOPROXY that serves the copy's platform/ as the version rename asks
// for.
func TestReadmeStartsANewService(t *testing.T) {
	onlyInTheTemplate(t)
	if os.Getenv(insideFreshClone) != "" {
		t.Skip("this is the suite TestFreshClone runs")
	}
	if testing.Short() {
		testkit.Skip(t, "runs the README's block, go test ./... included, in two copies of the repository; skipped with -short")
	}
	// Each shell's run includes the whole suite of the new service, which
	// takes minutes and more than a package's default timeout: .ci/run
	// runs it as a step of its own (FOLLOW_README=1 with a longer
	// -timeout); go test ./... does not.
	if os.Getenv(followREADME) == "" {
		testkit.Skip(t, "runs the README's Start a new service block, go test ./... included, in copies of the repository: set "+followREADME+"=1 (.ci/run does)")
	}
	blocks := readmeStartBlocks(t)
	shells := []struct{ name, install string }{
		{"sh", "install a POSIX shell as sh (Debian: dash)"},
		{"zsh", "install zsh (Debian: zsh), the shell that refuses unquoted ? and ( in arguments"},
	}
	for _, mode := range []struct {
		prefix  string
		lines   []string
		library bool
	}{
		{"", blocks.vendored, false},
		{"library ", blocks.library, true},
	} {
		for _, shell := range shells {
			t.Run(mode.prefix+"in "+shell.name, func(t *testing.T) {
				followBlock(t, testkit.LookPath(t, shell.install, shell.name), mode.lines, mode.library)
			})
		}
	}
}

// TestReadmeStartBlockQuotesItsArguments reads the README's "Start a new
// service" block: an argument a shell may expand or parse (a ?, *, (, [,
// {, $ or the like outside quotes) is quoted, so that the block runs the
// same in sh, bash and zsh, whose globbing refuses an unquoted
// note:string? that matches no file.
func TestReadmeStartBlockQuotesItsArguments(t *testing.T) {
	onlyInTheTemplate(t)
	t.Parallel()
	blocks := readmeStartBlocks(t)
	for _, line := range slices.Concat(blocks.vendored, blocks.library) {
		for _, word := range unquotedSpecials(line) {
			t.Errorf("the README runs %q with %s unquoted: quote it ('…')", line, word)
		}
	}
}

func TestUnquotedSpecials(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line string
		want []string
	}{
		{"git clone https://github.com/acme/x.git orders && cd orders", nil},
		{"go run ./cmd/starter resource orders a:int 'b:enum(x,y)' 'c:string?' \"d:time?\" e\\?", nil},
		{"go run ./cmd/starter resource orders note:string?", []string{"note:string?"}},
		{"go test ./... 'a'b(c)", []string{"'a'b(c)"}},
		{"echo $HOME ~/x {a,b} [ab] *.go =ls", []string{"$HOME", "~/x", "{a,b}", "[ab]", "*.go", "=ls"}},
		{"a | b; c", []string{"|", "b;"}},
		{`echo "$HOME" '$HOME'`, []string{`"$HOME"`}},
	}
	for _, tt := range tests {
		got := unquotedSpecials(tt.line)
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("unquotedSpecials(%q) = %q, want %q", tt.line, got, tt.want)
		}
	}
}

// startBlocks are the command lines of the README's two "Start a new
// service" blocks.
type startBlocks struct {
	vendored []string // the block whose rename keeps the platform a copy
	library  []string // the block whose rename is rename --library
}

// readmeStartBlocks returns the README's ```sh blocks under startHeading,
// up to the next section: exactly two, one whose starter rename has
// --library and one whose has not, in either order.
func readmeStartBlocks(t *testing.T) startBlocks {
	t.Helper()
	blocks := shBlocks(t, readFile(t, "README.md"), startHeading)
	var b startBlocks
	for i, lines := range blocks {
		renames := 0
		library := false
		for _, line := range lines {
			if strings.Contains(line, "starter rename") {
				renames++
				library = slices.ContainsFunc(strings.Fields(line), func(f string) bool {
					return f == libraryFlag || strings.HasPrefix(f, libraryFlag+"=")
				})
			}
		}
		switch {
		case renames != 1:
			t.Fatalf("README.md: the ```sh block %d of %q runs starter rename %d times, want once:\n%s", i+1, startHeading, renames, strings.Join(lines, "\n"))
		case library && b.library != nil, !library && b.vendored != nil:
			t.Fatalf("README.md: %q has two ```sh blocks whose rename is alike (--library: %t)", startHeading, library)
		case library:
			b.library = lines
		default:
			b.vendored = lines
		}
	}
	if b.vendored == nil || b.library == nil {
		t.Fatalf("README.md: %q needs a ```sh block with starter rename and one with starter rename %s; it has %d blocks", startHeading, libraryFlag, len(blocks))
	}
	return b
}

// shBlocks returns the command lines (blank lines and comments left out)
// of each ```sh block of the markdown text's section under heading, which
// ends at the next "## " heading.
func shBlocks(t *testing.T, text, heading string) [][]string {
	t.Helper()
	var blocks [][]string
	var lines []string
	state := 0 // 0: before the heading, 1: in the section, 2: in a block
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case state == 0:
			if line == heading {
				state = 1
			}
		case state == 1 && strings.HasPrefix(line, "## "):
			return blocks
		case state == 1 && line == "```sh":
			state, lines = 2, nil
		case state == 2 && line == "```":
			if len(lines) == 0 {
				t.Fatalf("README.md: a ```sh block of %q is empty", heading)
			}
			blocks, state = append(blocks, lines), 1
		case state == 2 && line != "" && !strings.HasPrefix(line, "#"):
			lines = append(lines, line)
		}
	}
	if state == 0 {
		t.Fatalf("README.md: found no section %q", heading)
	}
	if state == 2 {
		t.Fatalf("README.md: a ```sh block of %q is not closed", heading)
	}
	return blocks
}

// followBlock runs the block's lines in order in a new directory, each
// through shell -c in the directory the lines before it left it in. A
// line of git clone and cd commands joined by && is followed here: the
// clone of the template becomes a copy of the work tree at the clone's
// target, and cd changes the directory of the lines after it. For the
// library block, the copy's platform/ is published on a file GOPROXY as
// the version rename --library asks for, and every line runs with the
// proxy's environment.
func followBlock(t *testing.T, shell string, lines []string, library bool) {
	t.Helper()
	dir := t.TempDir()
	env := newcomerEnv()
	upstream := "https://" + templateModule(t) + ".git"
	platform := templateModule(t) + "/platform"
	var proxy *testkit.ModuleProxy
	version := ""
	if library {
		proxy = testkit.NewModuleProxy(t)
		env = append(env, proxy.Env()...)
	}
	for _, line := range lines {
		start := time.Now()
		if strings.Contains(line, "git clone") || strings.HasPrefix(line, "cd ") {
			for _, part := range strings.Split(line, "&&") {
				f := strings.Fields(part)
				switch {
				case len(f) >= 3 && len(f) <= 4 && f[0] == "git" && f[1] == "clone":
					if f[2] != upstream {
						t.Fatalf("the README clones %s, not the template's repository %s", f[2], upstream)
					}
					target := strings.TrimSuffix(path.Base(f[2]), ".git")
					if len(f) == 4 {
						target = f[3]
					}
					if err := os.Rename(copyWorkTree(t), filepath.Join(dir, target)); err != nil {
						t.Fatal(err)
					}
					if library {
						v, err := changelog.NewestOrFirstOf(filepath.Join(dir, target, "platform", "CHANGELOG.md"))
						if err != nil {
							t.Fatal(err)
						}
						version = v
						proxy.Add(t, platform, version, filepath.Join(dir, target, "platform"))
					}
				case len(f) == 2 && f[0] == "cd":
					dir = filepath.Join(dir, f[1])
				default:
					t.Fatalf("the README's line %q joins %q to a clone or cd: this test cannot follow it", line, strings.TrimSpace(part))
				}
			}
		} else {
			cmd := exec.CommandContext(testkit.Context(t), shell, "-c", line)
			cmd.Dir = dir
			cmd.Env = append(env, "PWD="+dir)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%s -c %q in %s: %v\n%s", filepath.Base(shell), line, dir, err, out)
			}
			if strings.HasPrefix(line, "go test") {
				t.Logf("%s", out)
			}
		}
		t.Logf("%s: %s: %s", filepath.Base(shell), line, time.Since(start).Round(100*time.Millisecond))
	}
	// The block made a service of its own: a module other than the
	// template's, with a generated resource.
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatalf("the README's block left no go.mod in the directory it ends in: %v", err)
	}
	if mod := modfile.ModulePath(data); mod == templateModule(t) {
		t.Errorf("the README's block left the module %s as it was", mod)
	}
	models, _ := filepath.Glob(filepath.Join(dir, "app", "models", "*.go"))
	generated := false
	for _, m := range models {
		if data, err := os.ReadFile(m); err == nil && generatedMarker.Match(data) {
			generated = true
		}
	}
	if !generated {
		t.Error("the README's block generated no resource")
	}
	if library {
		followedLibrary(t, dir, proxy.Env(), platform, version)
	}
}

// followedLibrary fails t unless the service in dir is one on the
// platform as a library: no platform/ of its own, and the go command,
// with env, resolving the platform to version from the proxy, not to a
// replacement.
func followedLibrary(t *testing.T, dir string, env []string, platform, version string) {
	t.Helper()
	if version == "" {
		t.Fatal("the README's library block cloned no template, so no platform was published")
	}
	if _, err := os.Stat(filepath.Join(dir, "platform")); !os.IsNotExist(err) {
		t.Errorf("the README's library block left a platform/ in the service (%v)", err)
	}
	got := strings.TrimSpace(testkit.Go(t, dir, env, "list", "-m", "-f", "{{.Version}}{{with .Replace}} => {{.Path}}{{end}}", platform))
	if got != version {
		t.Errorf("after the README's library block, the service's %s is %q, want %s as required from the proxy", platform, got, version)
	}
}

// newcomerEnv is this process's environment as a newcomer's shell has
// it: without CI (so that a missing tool skips its tests, as on a machine
// with only Go), without the switches of this suite's slow runs, and
// without PWD, which each command gets anew.
func newcomerEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		key, _, _ := strings.Cut(kv, "=")
		switch key {
		case "CI", "PWD", "FRESH_CLONE", insideFreshClone, followREADME:
			continue
		}
		env = append(env, kv)
	}
	return env
}

// unquotedSpecials returns the words of a shell command line that hold,
// outside quotes, a character some shell expands or parses: a glob (* ?
// [ ]), brace expansion, parentheses, redirection or a pipe, a variable,
// history or command substitution, or a ~, # or = at the word's start. The
// && that joins two commands is no word.
func unquotedSpecials(line string) []string {
	var words []string
	var word strings.Builder
	special, quote, escaped := false, rune(0), false
	flush := func() {
		if w := word.String(); w != "" && special && w != "&&" {
			words = append(words, w)
		}
		word.Reset()
		special = false
	}
	for _, r := range line {
		switch {
		case escaped:
			escaped = false
		case quote != 0:
			if r == quote {
				quote = 0
			} else if quote == '"' && (r == '$' || r == '`') {
				special = true
			}
		case r == '\\':
			escaped = true
		case r == '\'' || r == '"':
			quote = r
		case r == ' ' || r == '\t':
			flush()
			continue
		case strings.ContainsRune("*?[]{}()<>|;&$!`", r):
			special = true
		case word.Len() == 0 && strings.ContainsRune("~#=", r):
			special = true
		}
		word.WriteRune(r)
	}
	flush()
	return words
}
