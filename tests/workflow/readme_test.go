package workflow

import (
	"bufio"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/modfile"

	"github.com/asapjs/fiber-template/internal/testkit"
)

// followREADME turns on TestReadmeStartsANewService, which runs the
// README's "Start a new service" block, its go test ./... included, once
// a shell: .ci/run sets it in a step of its own, as it does FRESH_CLONE.
const followREADME = "FOLLOW_README"

// startHeading is the README section whose ```sh block a newcomer follows
// to start a service.
const startHeading = "## Start a new service"

// TestReadmeStartsANewService follows the README's "Start a new service"
// block to the letter, as a newcomer does on a fresh clone: each line
// through sh -c, and again through zsh -c, in a copy of the repository
// (the clone line's git clone copies the work tree instead, to the
// directory it names; its cd is honoured), with CI unset, so that the
// block's own go test ./... runs as on a newcomer's machine. It must pass
// in both shells.
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
	lines := readmeStartBlock(t)
	for _, shell := range []struct{ name, install string }{
		{"sh", "install a POSIX shell as sh (Debian: dash)"},
		{"zsh", "install zsh (Debian: zsh), the shell that refuses unquoted ? and ( in arguments"},
	} {
		t.Run("in "+shell.name, func(t *testing.T) {
			followBlock(t, testkit.LookPath(t, shell.install, shell.name), lines)
		})
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
	for _, line := range readmeStartBlock(t) {
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

// readmeStartBlock returns the command lines of the README's first ```sh
// block after startHeading.
func readmeStartBlock(t *testing.T) []string {
	t.Helper()
	var lines []string
	state := 0 // 0: before the heading, 1: before the block, 2: in it
	sc := bufio.NewScanner(strings.NewReader(readFile(t, "README.md")))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case state == 0 && strings.TrimSpace(line) == startHeading:
			state = 1
		case state == 1 && strings.HasPrefix(line, "## "):
			t.Fatalf("README.md: the section %q has no ```sh block", startHeading)
		case state == 1 && strings.TrimSpace(line) == "```sh":
			state = 2
		case state == 2 && strings.TrimSpace(line) == "```":
			if len(lines) == 0 {
				t.Fatalf("README.md: the ```sh block of %q is empty", startHeading)
			}
			return lines
		case state == 2 && strings.TrimSpace(line) != "" && !strings.HasPrefix(strings.TrimSpace(line), "#"):
			lines = append(lines, strings.TrimSpace(line))
		}
	}
	t.Fatalf("README.md: found no ```sh block under %q", startHeading)
	return nil
}

// followBlock runs the block's lines in order in a new directory, each
// through shell -c in the directory the lines before it left it in. A
// line of git clone and cd commands joined by && is followed here: the
// clone of the template becomes a copy of the work tree at the clone's
// target, and cd changes the directory of the lines after it.
func followBlock(t *testing.T, shell string, lines []string) {
	t.Helper()
	dir := t.TempDir()
	env := newcomerEnv()
	upstream := "https://" + templateModule(t) + ".git"
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
