package openapi_test

import (
	"encoding/json"
	"reflect"
	"testing"
)

// assertJSON fails the test unless got marshals to the same JSON value as
// the JSON text want, whatever the key order and spacing.
func assertJSON(t *testing.T, got any, want string) {
	t.Helper()
	b, err := json.Marshal(got)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	var g, w any
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatalf("unmarshal got: %v", err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("unmarshal want %s: %v", want, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}

// decoded renders a document with render (a Registry's JSON or JSON31)
// and decodes it, failing the test on an error of either.
func decoded(t *testing.T, render func() ([]byte, error)) map[string]any {
	t.Helper()
	b, err := render()
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}
