package basicauth_test

import (
	"encoding/base64"
	"testing"

	"github.com/asapjs/fiber-template/platform/basicauth"
)

func TestAllow(t *testing.T) {
	t.Parallel()
	a := basicauth.New(map[string]string{"ann": "pass:word", "bob": "other"})
	cases := []struct {
		name, password string
		want           bool
	}{
		{"ann", "pass:word", true},
		{"bob", "other", true},
		{"ann", "other", false},
		{"bob", "pass:word", false},
		{"ann", "pass:wor", false},
		{"", "", false},
		{"carl", "pass:word", false},
	}
	for _, tc := range cases {
		if got := a.Allow(tc.name, tc.password); got != tc.want {
			t.Errorf("Allow(%q, %q) = %v, want %v", tc.name, tc.password, got, tc.want)
		}
	}
	if basicauth.New(nil).Allow("", "") {
		t.Error("no accounts allowed an empty name and password")
	}
}

func TestParse(t *testing.T) {
	t.Parallel()
	enc := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	cases := []struct {
		header, name, password string
		ok                     bool
	}{
		{"Basic " + enc("ann:pass:word"), "ann", "pass:word", true},
		{"basic " + enc("ann:"), "ann", "", true},
		{"BASIC  " + enc("ann:x") + " ", "ann", "x", true},
		{"Basic " + enc("no colon"), "", "", false},
		{"Bearer " + enc("ann:x"), "", "", false},
		{"Basic !!!", "", "", false},
		{"Basic", "", "", false},
		{"", "", "", false},
	}
	for _, tc := range cases {
		name, password, ok := basicauth.Parse(tc.header)
		if ok != tc.ok || ok && (name != tc.name || password != tc.password) {
			t.Errorf("Parse(%q) = %q, %q, %v; want %q, %q, %v", tc.header, name, password, ok, tc.name, tc.password, tc.ok)
		}
	}
	if got := basicauth.Challenge(`a "b" \c`); got != `Basic realm="a \"b\" \\c"` {
		t.Errorf("Challenge = %s", got)
	}
}
