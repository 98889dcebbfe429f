package main

import (
	"maps"
	"strings"
	"testing"
)

func TestChangeIsAllOrNothing(t *testing.T) {
	t.Parallel()
	tree := map[string]string{"a.go": "package a\n", "gone.go": "package a\n", "blocked": "a file, not a directory"}
	t.Run("a file that cannot be written midway leaves the tree as it was", func(t *testing.T) {
		t.Parallel()
		root := writeTree(t, tree)
		before := snapshot(t, root)
		c := change{
			writes:  []file{{"a.go", []byte("package a // new\n")}, {"new/deep/b.go", []byte("package b\n")}, {"blocked/c.go", []byte("package c\n")}},
			removes: []string{"gone.go"},
		}
		if _, err := c.apply(root); err == nil || !strings.Contains(err.Error(), "blocked") {
			t.Errorf("apply: %v, want an error naming blocked", err)
		}
		if after := snapshot(t, root); !maps.Equal(after, before) {
			t.Errorf("the tree changed:\n%s", diffTrees(before, after))
		}
	})
	t.Run("undo after apply puts every file back, the guarded ones too", func(t *testing.T) {
		t.Parallel()
		root := writeTree(t, tree)
		before := snapshot(t, root)
		c := change{writes: []file{{"a.go", []byte("package a // new\n")}, {"new/b.go", []byte("package b\n")}}, removes: []string{"gone.go"}}
		a, err := c.apply(root)
		if err != nil {
			t.Fatal(err)
		}
		got := readTree(t, root)
		if got["a.go"] != "package a // new\n" || got["new/b.go"] != "package b\n" || got["gone.go"] != "" {
			t.Fatalf("after apply the tree is %v", got)
		}
		if err := a.guard("blocked", "api/openapi.json"); err != nil {
			t.Fatal(err)
		}
		writeFile(t, root, "blocked", "rewritten")
		writeFile(t, root, "api/openapi.json", "{}")
		if err := a.undo(); err != nil {
			t.Fatal(err)
		}
		if after := snapshot(t, root); !maps.Equal(after, before) {
			t.Errorf("after undo the tree is not as it was:\n%s", diffTrees(before, after))
		}
	})
	t.Run("keep leaves the new files alone and nothing else", func(t *testing.T) {
		t.Parallel()
		root := writeTree(t, tree)
		a, err := change{writes: []file{{"a.go", []byte("package a // new\n")}}, removes: []string{"gone.go"}}.apply(root)
		if err != nil {
			t.Fatal(err)
		}
		if err := a.keep(); err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"./": "", "a.go": "package a // new\n", "blocked": tree["blocked"]}
		if got := snapshot(t, root); !maps.Equal(got, want) {
			t.Errorf("after keep:\n%s", diffTrees(want, got))
		}
	})
}
