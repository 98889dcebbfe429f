package main

import (
	"bytes"
	"context"
	"io"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/asapjs/fiber-template/internal/testkit"
)

// dispatchOut runs dispatch with args and env and returns its error and
// what it wrote to standard output.
func dispatchOut(t *testing.T, args []string, pairs map[string]string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := dispatch(t.Context(), args, env(pairs), stdio{in: strings.NewReader(""), out: &out, err: io.Discard})
	return out.String(), err
}

// settingNames returns the names of the settings that keep.
func settingNames(keep func(setting) bool) []string {
	var names []string
	for _, s := range settings() {
		if keep(s) {
			names = append(names, s.Name)
		}
	}
	return names
}

// recordingEnv is a lookupEnv over pairs that records the keys looked up.
type recordingEnv struct {
	pairs map[string]string
	keys  map[string]bool
}

// lookup is the lookupEnv.
func (r *recordingEnv) lookup(key string) (string, bool) {
	r.keys[key] = true
	v, ok := r.pairs[key]
	return v, ok
}

func TestHelp(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		env  map[string]string
	}{
		{"help", []string{"help"}, nil},
		{"-h", []string{"-h"}, nil},
		{"--help", []string{"--help"}, nil},
		{"-help, as the flag package spells it", []string{"-help"}, nil},
		{"--help where the service would refuse to start", []string{"--help"}, map[string]string{"PORT": "eighty", "APP_ENV": "production"}},
	}
	for _, tt := range tests {
		t.Run(tt.name+" prints every command and variable", func(t *testing.T) {
			t.Parallel()
			out, err := dispatchOut(t, tt.args, tt.env)
			if err != nil {
				t.Fatalf("api %s: %v", strings.Join(tt.args, " "), err)
			}
			for _, u := range usages() {
				if !strings.Contains(out, "  "+u.Command) {
					t.Errorf("the help lacks the command %q", u.Command)
				}
			}
			for _, s := range settings() {
				line := "  " + s.Name + " "
				if s.Default != "" && !strings.Contains(out, "(default "+s.Default+")") {
					t.Errorf("the help lacks the default of %s", s.Name)
				}
				if !strings.Contains(out, line) && !strings.Contains(out, "  "+s.Name+"\n") {
					t.Errorf("the help lacks the variable %s", s.Name)
				}
			}
		})
	}
}

func TestUnknownCommands(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"an unknown command points at --help", []string{"frobnicate"}, "api --help"},
		{"a misspelt flag points at --help", []string{"--hepl"}, "api --help"},
		{"serve with arguments points at --help", []string{"serve", "now"}, "api --help"},
		{"an unknown migrate action lists new", []string{"migrate", "sideways"}, "new NAME"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := dispatchOut(t, tt.args, map[string]string{"DATABASE_URL": "sqlite:" + filepath.Join(t.TempDir(), "app.db")})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestHelpListsWhatRunDispatches(t *testing.T) {
	t.Parallel()
	// version, help and keys answer before the configuration is read.
	dispatched := slices.Sorted(maps.Keys(commands(context.Background(), config{}, nil, stdio{})))
	dispatched = append(dispatched, "help", "version", "keys")
	slices.Sort(dispatched)
	var listed []string
	for _, u := range usages() {
		listed = append(listed, strings.Fields(u.Command)[0])
	}
	listed = slices.Compact(slices.Sorted(slices.Values(listed)))
	if !slices.Equal(listed, dispatched) {
		t.Errorf("the help lists the commands %v, run dispatches %v", listed, dispatched)
	}
}

func TestSettingsAreWhatLoadConfigReads(t *testing.T) {
	t.Parallel()
	base := map[string]string{"JWT_SECRET": "a-test-secret"}
	load := func(t *testing.T, extra map[string]string) (config, []string) {
		t.Helper()
		pairs := maps.Clone(base)
		maps.Copy(pairs, extra)
		rec := &recordingEnv{pairs: pairs, keys: map[string]bool{}}
		cfg, err := loadConfig(rec.lookup)
		if err != nil {
			t.Fatalf("loadConfig(%v): %v", extra, err)
		}
		return cfg, slices.Sorted(maps.Keys(rec.keys))
	}
	defaults, read := load(t, nil)

	t.Run("every variable loadConfig reads is listed, and no other", func(t *testing.T) {
		listed := slices.Sorted(slices.Values(settingNames(func(s setting) bool { return !s.ProcessOnly })))
		if !slices.Equal(read, listed) {
			t.Errorf("loadConfig reads %v, the settings list %v", read, listed)
		}
	})

	for _, s := range settings() {
		if s.Default == "" || s.ProcessOnly {
			continue
		}
		t.Run(s.Name+"="+s.Default+" is what an unset "+s.Name+" means", func(t *testing.T) {
			t.Parallel()
			cfg, _ := load(t, map[string]string{s.Name: s.Default})
			if !reflect.DeepEqual(cfg, defaults) {
				t.Errorf("with %s=%s the configuration is\n%+v\nwithout it\n%+v", s.Name, s.Default, cfg, defaults)
			}
		})
	}
}

// documentedVariable finds the variables named in the first cell of a row
// of the configuration page's table.
var documentedVariable = regexp.MustCompile("`([A-Z][A-Z0-9_]+)`")

func TestSettingsAreTheDocumentedOnes(t *testing.T) {
	t.Parallel()
	page, err := os.ReadFile(filepath.Join(testkit.RepoRoot(t), "docs", "configuration.md"))
	if err != nil {
		t.Fatal(err)
	}
	section, _, _ := strings.Cut(string(page), "\n## ")
	var documented []string
	for line := range strings.Lines(section) {
		cells := strings.Split(line, "|")
		if len(cells) < 3 || !strings.HasPrefix(line, "| `") {
			continue
		}
		for _, m := range documentedVariable.FindAllStringSubmatch(cells[1], -1) {
			documented = append(documented, m[1])
		}
	}
	slices.Sort(documented)
	listed := slices.Sorted(slices.Values(settingNames(func(setting) bool { return true })))
	if !slices.Equal(documented, listed) {
		t.Errorf("docs/configuration.md's table has %v, the settings of --help %v", documented, listed)
	}
}
