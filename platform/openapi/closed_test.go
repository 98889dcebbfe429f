package openapi_test

import (
	"reflect"
	"testing"

	"github.com/asapjs/fiber-template/platform/openapi"
)

type (
	closedAddress struct {
		City string `json:"city"`
	}
	closedOrder struct {
		Address closedAddress     `json:"address"`
		Labels  map[string]string `json:"labels"`
		Extra   struct {
			Note string `json:"note"`
		} `json:"extra"`
	}
	closedReceipt struct {
		ID int64 `json:"id"`
	}
	closedLogin struct {
		User string `form:"user" json:"user"`
	}
)

// TestRequestObjectsAreClosed checks that the document says what the
// router does with a member a JSON body's object does not declare (it
// refuses it): every object a JSON request body reaches, through its
// components too, has additionalProperties: false; a map keeps its value
// schema, and answers and form bodies stay open.
func TestRequestObjectsAreClosed(t *testing.T) {
	t.Parallel()
	reg := openapi.New(openapi.Config{Title: "T", Version: "1"})
	routes := []openapi.Route{
		{Method: "POST", Path: "/orders", Input: reflect.TypeFor[struct{ Body closedOrder }](), Output: reflect.TypeFor[closedReceipt]()},
		{Method: "POST", Path: "/inline", Input: reflect.TypeFor[struct {
			Body struct {
				N int `json:"n"`
			}
		}]()},
		{Method: "POST", Path: "/login", Input: reflect.TypeFor[struct{ Body closedLogin }](), BodyContentTypes: []string{openapi.MediaForm}},
	}
	for _, rt := range routes {
		if _, _, err := reg.AddRoute(rt); err != nil {
			t.Fatalf("%s %s: %v", rt.Method, rt.Path, err)
		}
	}
	doc := decoded(t, reg.JSON)
	schemas := dig(t, doc, "components", "schemas")
	body := func(path, media string) map[string]any {
		return dig(t, doc, "paths", path, "post", "requestBody", "content", media, "schema")
	}
	tests := []struct {
		name   string
		schema map[string]any
		want   any // additionalProperties; nil when absent
	}{
		{"a body's component", dig(t, schemas, "closedOrder"), false},
		{"a component the body reaches", dig(t, schemas, "closedAddress"), false},
		{"an inline object inside a body's component", dig(t, schemas, "closedOrder", "properties", "extra"), false},
		{"a map keeps its value schema", dig(t, schemas, "closedOrder", "properties", "labels"), map[string]any{"type": "string"}},
		{"an inline body", body("/inline", openapi.MediaJSON), false},
		{"an answer", dig(t, schemas, "closedReceipt"), nil},
		{"a form body", body("/login", openapi.MediaForm), nil},
	}
	for _, tt := range tests {
		if got := tt.schema["additionalProperties"]; !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: additionalProperties = %#v, want %#v", tt.name, got, tt.want)
		}
	}

	typed, err := reg.Document()
	if err != nil {
		t.Fatal(err)
	}
	if s := typed.Components.Schemas["closedOrder"]; !s.Closed || s.AdditionalProperties != nil || s.Properties["labels"].AdditionalProperties.Type != "string" {
		t.Errorf("Document() read closedOrder as %+v", s)
	}
	if typed.Components.Schemas["closedReceipt"].Closed {
		t.Error("Document() closed the answer's component")
	}
}
