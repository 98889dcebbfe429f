package openapi_test

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"testing"

	"github.com/asapjs/fiber-template/platform/openapi"
)

// schema31Of renders the 3.1 document of one route answering t and returns
// the schema of its 200 answer, resolved when it is a component.
func schema31Of(t *testing.T, typ reflect.Type) map[string]any {
	t.Helper()
	reg := openapi.New(openapi.Config{Title: "T", Version: "1"})
	if _, _, err := reg.AddRoute(openapi.Route{Method: "GET", Path: "/x", Output: typ}); err != nil {
		t.Fatal(err)
	}
	doc := decoded(t, reg.JSON31)
	if doc["openapi"] != openapi.Version31 {
		t.Fatalf("openapi = %v", doc["openapi"])
	}
	s := dig(t, doc, "paths", "/x", "get", "responses", "200", "content", "application/json", "schema")
	if ref, ok := s["$ref"].(string); ok {
		name, _ := openapi.NameFromRef(ref)
		s = dig(t, doc, "components", "schemas", name)
	}
	return s
}

// dig follows keys through nested objects.
func dig(t *testing.T, m map[string]any, keys ...string) map[string]any {
	t.Helper()
	for _, k := range keys {
		next, ok := m[k].(map[string]any)
		if !ok {
			t.Fatalf("no object at %q in %v", k, slices.Sorted(maps.Keys(m)))
		}
		m = next
	}
	return m
}

type (
	nullable31 struct {
		Note   *string   `json:"note"`
		Level  *string   `json:"level" validate:"omitempty,oneof=low high"`
		Owner  *Owner31  `json:"owner"`
		Amount float64   `json:"amount" validate:"gt=0,lt=10"`
		Name   string    `json:"name" example:"Ada"`
		Tags   []*string `json:"tags"`
	}
	Owner31 struct {
		ID int64 `json:"id"`
	}
)

func TestJSON31RendersSchemasAsJSONSchema2020(t *testing.T) {
	t.Parallel()
	props := dig(t, schema31Of(t, reflect.TypeFor[nullable31]()), "properties")
	tests := []struct {
		member, want string
	}{
		{"note", `{"type":["string","null"]}`},
		{"level", `{"type":["string","null"],"enum":["low","high",null]}`},
		{"owner", `{"anyOf":[{"$ref":"#/components/schemas/Owner31"},{"type":"null"}]}`},
		{"amount", `{"type":"number","format":"double","exclusiveMinimum":0,"exclusiveMaximum":10}`},
		{"name", `{"type":"string","examples":["Ada"]}`},
		{"tags", `{"type":"array","items":{"type":["string","null"]}}`},
	}
	for _, tc := range tests {
		var want map[string]any
		if err := json.Unmarshal([]byte(tc.want), &want); err != nil {
			t.Fatal(err)
		}
		if got := props[tc.member]; !reflect.DeepEqual(got, want) {
			g, _ := json.Marshal(got)
			t.Errorf("%s: %s, want %s", tc.member, g, tc.want)
		}
	}
}

// TestJSON31DescribesTheSameAPI compares the 3.0 and 3.1 documents of the
// users API member by member: the same operations, parameters, bodies,
// statuses, components and properties, only the schema dialect differs.
func TestJSON31DescribesTheSameAPI(t *testing.T) {
	t.Parallel()
	reg := usersRegistry(t)
	b30, err := reg.JSON()
	if err != nil {
		t.Fatal(err)
	}
	b31, err := reg.JSON31()
	if err != nil {
		t.Fatal(err)
	}
	var d30, d31 map[string]any
	if err := json.Unmarshal(b30, &d30); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b31, &d31); err != nil {
		t.Fatal(err)
	}
	if got := outline(d31); !reflect.DeepEqual(outline(d30), got) {
		t.Errorf("the 3.1 document describes another API:\n3.0 %v\n3.1 %v", outline(d30), got)
	}
	for _, k := range []string{"info", "servers", "security", "tags"} {
		if !reflect.DeepEqual(d30[k], d31[k]) {
			t.Errorf("%s differs: %v and %v", k, d30[k], d31[k])
		}
	}
}

// outline lists what a document describes, dialect aside: each operation
// with its id, parameters, body media types and statuses, and each
// component with its properties and required members.
func outline(doc map[string]any) []string {
	var out []string
	paths, _ := doc["paths"].(map[string]any)
	for path, item := range paths {
		for method, v := range item.(map[string]any) {
			op, ok := v.(map[string]any)
			if !ok {
				continue
			}
			out = append(out, method+" "+path+" id "+op["operationId"].(string))
			params, _ := op["parameters"].([]any)
			for _, p := range params {
				pm := p.(map[string]any)
				out = append(out, method+" "+path+" param "+pm["in"].(string)+" "+pm["name"].(string)+" required "+jsonOf(pm["required"]))
			}
			if body, ok := op["requestBody"].(map[string]any); ok {
				for mt := range body["content"].(map[string]any) {
					out = append(out, method+" "+path+" body "+mt)
				}
			}
			for status := range op["responses"].(map[string]any) {
				out = append(out, method+" "+path+" answers "+status)
			}
		}
	}
	schemas, _ := doc["components"].(map[string]any)["schemas"].(map[string]any)
	for name, s := range schemas {
		sm := s.(map[string]any)
		props, _ := sm["properties"].(map[string]any)
		for prop := range props {
			out = append(out, "component "+name+" property "+prop)
		}
		out = append(out, "component "+name+" required "+jsonOf(sm["required"]))
	}
	slices.Sort(out)
	return out
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
