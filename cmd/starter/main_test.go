package main

import (
	"errors"
	"io"
	"maps"
	"slices"
	"strings"
	"testing"
)

func TestParseInterleaved(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args      []string
		positions []string
		title     string
	}{
		{[]string{"github.com/acme/orders"}, []string{"github.com/acme/orders"}, ""},
		{[]string{"github.com/acme/orders", "--title", "Orders API"}, []string{"github.com/acme/orders"}, "Orders API"},
		{[]string{"--title=Orders API", "github.com/acme/orders"}, []string{"github.com/acme/orders"}, "Orders API"},
		{[]string{"orders", "-title", "X", "a:int", "b:string?"}, []string{"orders", "a:int", "b:string?"}, "X"},
		{[]string{"orders", "--", "--title", "X"}, []string{"orders", "--title", "X"}, ""},
		{[]string{"-", "x"}, []string{"-", "x"}, ""},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			fs := newFlags("test")
			title := fs.String("title", "", "")
			got, err := parseInterleaved(fs, tt.args)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.positions) || *title != tt.title {
				t.Errorf("positions %q, title %q; want %q, %q", got, *title, tt.positions, tt.title)
			}
		})
	}
}

func TestRunRefusesBadCommandLines(t *testing.T) {
	t.Parallel()
	root := writeTree(t, serviceTree)
	for _, args := range [][]string{
		{},
		{"rename"},
		{"rename", "a.com/b", "c.com/d"},
		{"rename", "a.com/b", "--nope"},
		{"rename", "a.com/b", "--title"},
		{"rename", "--platform-version", "v1.0.0", "a.com/b"},
		{"rename", "--library", "--platform-version"},
		{"resource", "orders"},
		{"resource", "orders", "--singular"},
		{"remove"},
		{"remove", "orders", "invoices"},
		{"field"},
		{"field", "orders"},
		{"field", "--remove", "orders"},
		{"field", "--remove", "orders", "a", "b"},
		{"field", "orders", "x:int", "--nope"},
		{"publish"},
	} {
		t.Run(strings.Join(args, " ")+" is refused", func(t *testing.T) {
			err := run(append([]string{"-C", root}, args...), io.Discard)
			if !errors.Is(err, errUsage) {
				t.Errorf("error %v, want a usage error", err)
			}
		})
	}
}

func TestRunPrintsHelp(t *testing.T) {
	t.Parallel()
	root := writeTree(t, serviceTree)
	for _, args := range [][]string{
		{"--help"}, {"-h"}, {"help"}, {"-C", root, "--help"},
		{"rename", "--help"}, {"rename", "github.com/acme/orders", "-h"}, {"resource", "orders", "x:int", "--help"}, {"remove", "-help"}, {"field", "orders", "--help"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			t.Parallel()
			var out strings.Builder
			if err := run(args, &out); err != nil {
				t.Fatalf("error %v, want none: asking for help is no mistake", err)
			}
			if out.String() != usage {
				t.Errorf("printed %q, want the usage", out.String())
			}
			if got := readTree(t, root); !maps.Equal(got, serviceTree) {
				t.Error("asking for help changed the repository")
			}
		})
	}
}

func TestRunTakesFlagsAfterTheArguments(t *testing.T) {
	t.Parallel()
	root := writeTree(t, serviceTree)
	var out strings.Builder
	if err := run([]string{"-C", root, "resource", "news", "title:string", "--singular", "news"}, &out); err != nil {
		t.Fatal(err)
	}
	if got := readTree(t, root); got["app/models/news.go"] == "" {
		t.Errorf("no app/models/news.go; the command said:\n%s", out.String())
	}
	if err := run([]string{"-C", root, "remove", "news"}, io.Discard); err != nil {
		t.Fatal(err)
	}
}
