package openapi_test

import (
	"testing"

	"github.com/asapjs/fiber-template/platform/openapi"
)

func intp(n int) *int { return &n }

func TestBodyLimit(t *testing.T) {
	str := func(n int) *openapi.Schema { return &openapi.Schema{Type: "string", MaxLength: intp(n)} }
	obj := func(props map[string]*openapi.Schema) *openapi.Schema {
		return &openapi.Schema{Type: "object", Properties: props}
	}
	json := func(s *openapi.Schema) *openapi.RequestBody {
		return &openapi.RequestBody{Content: map[string]*openapi.MediaType{"application/json": {Schema: s}}}
	}
	components := map[string]*openapi.Schema{
		"Name": str(5),
		// A schema that refers to itself has no bound.
		"Tree": obj(map[string]*openapi.Schema{"child": {Ref: openapi.Ref("Tree")}}),
	}
	// The limit of a compact size n: twice n plus 4 KiB.
	limit := func(n int64) int64 { return 2*n + 4096 }
	for _, tt := range []struct {
		name    string
		body    *openapi.RequestBody
		want    int64
		bounded bool
	}{
		// {"a":"…"}: braces 2, key 12+2, colon, value 12×5+2, comma.
		{"one string member", json(obj(map[string]*openapi.Schema{"a": str(5)})), limit(2 + 14 + 1 + 62 + 1), true},
		{"through a reference", json(obj(map[string]*openapi.Schema{"a": {Ref: openapi.Ref("Name")}})), limit(2 + 14 + 1 + 62 + 1), true},
		{"an enum counts its longest value", json(&openapi.Schema{Type: "string", Enum: []any{"ab", "abcd"}}), limit(12*4 + 2), true},
		{"a nullable integer", json(&openapi.Schema{Type: "integer", Nullable: true}), limit(20), true},
		{"an array of maxItems", json(&openapi.Schema{Type: "array", MaxItems: intp(3), Items: &openapi.Schema{Type: "boolean"}}), limit(2 + 3*6), true},
		{"a uuid", json(&openapi.Schema{Type: "string", Format: "uuid"}), limit(12*36 + 2), true},
		{"a string without maxLength", json(obj(map[string]*openapi.Schema{"a": {Type: "string"}})), 0, false},
		{"an array without maxItems", json(&openapi.Schema{Type: "array", Items: str(1)}), 0, false},
		{"a map", json(&openapi.Schema{Type: "object", AdditionalProperties: str(1)}), 0, false},
		{"an untyped value", json(&openapi.Schema{}), 0, false},
		{"a recursive schema", json(&openapi.Schema{Ref: openapi.Ref("Tree")}), 0, false},
		{"a form", &openapi.RequestBody{Content: map[string]*openapi.MediaType{"application/x-www-form-urlencoded": {Schema: obj(map[string]*openapi.Schema{"ab": str(2)})}}},
			limit(12*2 + 1 + 12*2 + 2 + 1), true},
		{"multipart", &openapi.RequestBody{Content: map[string]*openapi.MediaType{"multipart/form-data": {Schema: obj(map[string]*openapi.Schema{"a": str(1)})}}}, 0, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := openapi.BodyLimit(tt.body, components)
			if ok != tt.bounded || (ok && got != tt.want) {
				t.Errorf("BodyLimit = %d, %v; want %d, %v", got, ok, tt.want, tt.bounded)
			}
		})
	}
}

func TestCheckJSON(t *testing.T) {
	doc := &openapi.Document{Components: openapi.Components{Schemas: map[string]*openapi.Schema{}}}
	c, err := openapi.NewChecker(doc)
	if err != nil {
		t.Fatal(err)
	}
	s := &openapi.Schema{Type: "object", Required: []string{"a"}, Properties: map[string]*openapi.Schema{
		"a": {Type: "string", MaxLength: intp(3)},
		"n": {Type: "array", MaxItems: intp(2), Items: &openapi.Schema{Type: "integer"}},
	}}
	for _, tt := range []struct {
		body string
		want []openapi.Violation
		err  bool
	}{
		{body: `{"a":"abc","n":[1,2]}`},
		{body: `{"a":"\u00e9\u00e9\u00e9"}`},
		{body: `{}`, want: []openapi.Violation{{Field: "a", Message: "is required"}}},
		{body: `{"a":"abcd"}`, want: []openapi.Violation{{Field: "a", Message: "must have at most 3 characters"}}},
		{body: `{"a":[1,2,3]}`, want: []openapi.Violation{{Field: "a", Message: "must be a string", Malformed: true}}},
		{body: `{"a":"x","n":[1,2,3]}`, want: []openapi.Violation{{Field: "n", Message: "must have at most 2 items"}}},
		{body: `{"a":"x","n":[1.5]}`, want: []openapi.Violation{{Field: "n[0]", Message: "must be an integer", Malformed: true}}},
		{body: `{"z":1,"a":null,"b":2}`, want: []openapi.Violation{
			{Field: "a", Message: "must not be null"},
			{Field: "b", Message: "is not a member of this object", Malformed: true},
			{Field: "z", Message: "is not a member of this object", Malformed: true},
		}},
		{body: `{"a":"x","a":"y"}`, err: true},
		{body: `{"a":"x"} {}`, err: true},
		{body: `{"a":"x"`, err: true},
		{body: "{\"a\":\"\xff\"}", err: true},
	} {
		got, err := c.CheckJSON(s, []byte(tt.body), nil)
		if (err != nil) != tt.err {
			t.Errorf("%s: error %v, want an error: %v", tt.body, err, tt.err)
			continue
		}
		if len(got) != len(tt.want) {
			t.Errorf("%s: violations %+v, want %+v", tt.body, got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("%s: violation %d = %+v, want %+v", tt.body, i, got[i], tt.want[i])
			}
		}
	}
}
