package openapi

import (
	"strings"
	"testing"
)

func TestCheckSizes(t *testing.T) {
	t.Parallel()
	ptr := func(n int) *int { return &n }
	tag := &Schema{Type: "string", MaxLength: ptr(3)}
	doc := &Document{Components: Components{Schemas: map[string]*Schema{
		"Tag": tag,
		"Item": {Type: "object", Properties: map[string]*Schema{
			"name": {Type: "string", MaxLength: ptr(5)},
			"note": {Type: "string"},
			"tags": {Type: "array", MaxItems: ptr(2), Items: &Schema{Ref: refPrefix + "Tag"}},
			"meta": {Type: "object", AdditionalProperties: &Schema{Type: "string", MaxLength: ptr(1)}},
		}},
		"Extended": {AllOf: []*Schema{{Ref: refPrefix + "Item"}, {Type: "object", Properties: map[string]*Schema{"extra": {Type: "string", MaxLength: ptr(1)}}}}},
	}}}
	c, err := NewChecker(doc)
	if err != nil {
		t.Fatal(err)
	}
	item, extended := &Schema{Ref: refPrefix + "Item"}, &Schema{Ref: refPrefix + "Extended"}
	long := func(n int) string { return `"` + strings.Repeat("x", n) + `"` }
	tests := []struct {
		name   string
		schema *Schema
		body   string
		want   []Violation
	}{
		{"within every bound", item, `{"name":"ann","note":` + long(1000) + `,"tags":["a","b"],"meta":{"k":"v"}}`, nil},
		{"a string whose encoding alone is over its length", item, `{"name":` + long(12*5+1) + `}`,
			[]Violation{{Field: "name", Message: "must have at most 5 characters"}}},
		{"a string that may still fit by its encoding is left to the full check", item, `{"name":` + long(12*5) + `}`, nil},
		{"an unbounded string is never refused", item, `{"note":` + long(1<<16) + `}`, nil},
		{"too many items, and a too-long item by reference", item, `{"tags":[` + long(37) + `,"b","c","d"]}`,
			[]Violation{{Field: "tags[0]", Message: "must have at most 3 characters"}, {Field: "tags", Message: "must have at most 2 items"}}},
		{"additional members by their schema", item, `{"meta":{"k":` + long(13) + `}}`,
			[]Violation{{Field: "meta.k", Message: "must have at most 1 characters"}}},
		{"a member the object does not have", item, `{"admin":` + long(1) + `}`,
			[]Violation{{Field: "admin", Message: "is not a member of this object", Malformed: true}}},
		{"members of every allOf part", extended, `{"name":` + long(61) + `,"extra":` + long(13) + `}`,
			[]Violation{{Field: "name", Message: "must have at most 5 characters"}, {Field: "extra", Message: "must have at most 1 characters"}}},
		{"a fault stops the scan with what it saw", item, `{"name":` + long(61) + `,"name":1}`,
			[]Violation{{Field: "name", Message: "must have at most 5 characters"}}},
		{"not JSON", item, `{"name":`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := c.CheckSizes(tt.schema, []byte(tt.body), nil)
			if len(got) != len(tt.want) {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("got %+v, want %+v", got, tt.want)
				}
			}
		})
	}
}
