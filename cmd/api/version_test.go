package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestVersion(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	if err := printVersion(&out); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "api "+version+" (go") {
		t.Errorf("version printed %q", out.String())
	}
}
