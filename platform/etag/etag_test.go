package etag_test

import (
	"slices"
	"testing"

	"github.com/asapjs/fiber-template/platform/etag"
)

func TestParse(t *testing.T) {
	t.Parallel()
	cases := []struct {
		header string
		want   etag.Condition
		opaque []string
	}{
		{"*", etag.Condition{Present: true, Any: true}, nil},
		{` * `, etag.Condition{Present: true, Any: true}, nil},
		{`"3"`, etag.Condition{Present: true, Tags: []string{`"3"`}}, []string{"3"}},
		{`"3", W/"4" ,"5"`, etag.Condition{Present: true, Tags: []string{`"3"`, `W/"4"`, `"5"`}}, []string{"3", "5"}},
		{`"3", , "4",`, etag.Condition{Present: true, Tags: []string{`"3"`, `"4"`}}, []string{"3", "4"}},
		{`"a,b"`, etag.Condition{Present: true, Tags: []string{`"a,b"`}}, []string{"a,b"}},
		// Present but malformed, empty included: no tag, so nothing matches.
		{"", etag.Condition{Present: true}, nil},
		{`3, "4"`, etag.Condition{Present: true}, nil},
		{`"3" junk`, etag.Condition{Present: true}, nil},
		{`"3"junk`, etag.Condition{Present: true}, nil},
		{`"3" "4"`, etag.Condition{Present: true}, nil},
		{`"3", *`, etag.Condition{Present: true}, nil},
		{`*, "3"`, etag.Condition{Present: true}, nil},
		{`"unterminated`, etag.Condition{Present: true}, nil},
		{`"a b"`, etag.Condition{Present: true}, nil},
		{`W/`, etag.Condition{Present: true}, nil},
		{`w/"3"`, etag.Condition{Present: true}, nil},
	}
	for _, tc := range cases {
		got := etag.Parse(tc.header)
		if got.Present != tc.want.Present || got.Any != tc.want.Any || !slices.Equal(got.Tags, tc.want.Tags) {
			t.Errorf("Parse(%q) = %+v, want %+v", tc.header, got, tc.want)
		}
		if o := got.Opaque(); !slices.Equal(o, tc.opaque) {
			t.Errorf("Parse(%q).Opaque() = %q, want %q", tc.header, o, tc.opaque)
		}
	}
}

func TestMatchWeak(t *testing.T) {
	t.Parallel()
	cases := []struct {
		header, etag string
		want         bool
	}{
		{`"3"`, `"3"`, true},
		{`W/"3"`, `"3"`, true},
		{`"3"`, `W/"3"`, true},
		{`"2", "3"`, `"3"`, true},
		{`"4"`, `"3"`, false},
		{`*`, `"3"`, true},
		{``, `"3"`, false},
	}
	for _, tc := range cases {
		if got := etag.Parse(tc.header).MatchWeak(tc.etag); got != tc.want {
			t.Errorf("If-None-Match %q matches %s: %v, want %v", tc.header, tc.etag, got, tc.want)
		}
	}
}

func TestWeakIsADigestOfTheBytes(t *testing.T) {
	t.Parallel()
	a, b := etag.Weak([]byte(`{"data":[1]}`)), etag.Weak([]byte(`{"data":[2]}`))
	if a == b || a != etag.Weak([]byte(`{"data":[1]}`)) {
		t.Fatalf("Weak: %s and %s", a, b)
	}
	if !etag.Parse(a).MatchWeak(a) || len(etag.Parse(a).Opaque()) != 0 {
		t.Fatalf("%s does not read back as a weak tag", a)
	}
	// The tag is the same on every instance and release: a client's
	// cached tag keeps matching across a deploy. SHA-256's first 16
	// bytes, in base64url.
	if want := `W/"YKVMpN3z-tm65fpnqhw6VA"`; a != want {
		t.Errorf("Weak = %s, want %s", a, want)
	}
}

func TestCheck(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"3", "v3-abc", "!#~"} {
		if err := etag.Check(ok); err != nil {
			t.Errorf("Check(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"", `a"b`, "a b", "é", "a\nb", "a\x7fb", "\x7f"} {
		if etag.Check(bad) == nil {
			t.Errorf("Check(%q) accepted it", bad)
		}
	}
}

func TestVersions(t *testing.T) {
	cases := []struct {
		header string
		want   []int64
	}{
		{"", []int64{0}}, // sent empty: matches nothing
		{"*", nil},
		{`"3"`, []int64{0, 3}},
		{`"3", "5"`, []int64{0, 3, 5}},
		{`W/"3"`, []int64{0}},
		{`"x", "-2", "0"`, []int64{0}},
		{"3", []int64{0}},
		// Strong comparison is of the text: other spellings of a number
		// are other tags.
		{`"+2", "02", "0003", " 4", "5 "`, []int64{0}},
		{`"02", "2"`, []int64{0, 2}},
	}
	for _, tc := range cases {
		if got := etag.Parse(tc.header).Versions(); !slices.Equal(got, tc.want) {
			t.Errorf("Parse(%q).Versions() = %v, want %v", tc.header, got, tc.want)
		}
	}
	if got := (etag.Condition{}).Versions(); got != nil {
		t.Errorf("no header: Versions() = %v, want nil", got)
	}
	if got := etag.Parse(etag.Strong(etag.Version(42))).Versions(); !slices.Equal(got, []int64{0, 42}) {
		t.Errorf("a version's own tag reads back as %v", got)
	}
}

func TestParseFields(t *testing.T) {
	t.Parallel()
	if got := etag.ParseFields(nil); got.Present {
		t.Errorf("no field: %+v, want no condition", got)
	}
	cases := []struct {
		fields []string
		tags   []string
	}{
		{[]string{`"3"`}, []string{`"3"`}},
		{[]string{`"3"`, `W/"4", "5"`}, []string{`"3"`, `W/"4"`, `"5"`}},
		{[]string{""}, nil},
		{[]string{`"3"`, `junk`}, nil},
	}
	for _, tc := range cases {
		var fields [][]byte
		for _, f := range tc.fields {
			fields = append(fields, []byte(f))
		}
		if got := etag.ParseFields(fields); !got.Present || !slices.Equal(got.Tags, tc.tags) {
			t.Errorf("ParseFields(%q) = %+v, want present with %q", tc.fields, got, tc.tags)
		}
	}
}
