package openapi_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/asapjs/fiber-template/platform/openapi"
	"github.com/asapjs/fiber-template/platform/paging"
)

func TestNameFromRef(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		ref     string
		want    string
		wantErr bool
	}{
		{"a schema reference gives its name", "#/components/schemas/User", "User", false},
		{"dots, dashes and underscores are kept", "#/components/schemas/a.b-c_d", "a.b-c_d", false},
		{"another kind of component is an error", "#/components/parameters/User", "", true},
		{"a bare name is an error", "User", "", true},
		{"an empty name is an error", "#/components/schemas/", "", true},
		{"a nested pointer is an error", "#/components/schemas/User/properties/id", "", true},
		{"another document is an error", "other.json#/components/schemas/User", "", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := openapi.NameFromRef(tc.ref)
			if (err != nil) != tc.wantErr {
				t.Fatalf("NameFromRef(%q) error = %v, want error %v", tc.ref, err, tc.wantErr)
			}
			if got != tc.want {
				t.Errorf("NameFromRef(%q) = %q, want %q", tc.ref, got, tc.want)
			}
			if err == nil && openapi.Ref(got) != tc.ref {
				t.Errorf("Ref(%q) = %q, want %q back", got, openapi.Ref(got), tc.ref)
			}
		})
	}
}

func TestAddSchema(t *testing.T) {
	t.Parallel()
	money := func() *openapi.Schema {
		return &openapi.Schema{Type: "integer", Format: "int64", Minimum: ptr(0.0), Default: 0, Description: "Amount in cents"}
	}
	cases := []struct {
		name    string
		steps   func(reg *openapi.Registry) error
		wantErr string
	}{
		{"a raw schema is added", func(reg *openapi.Registry) error {
			return reg.AddSchema("Money", money())
		}, ""},
		{"the same schema twice is fine", func(reg *openapi.Registry) error {
			if err := reg.AddSchema("Money", money()); err != nil {
				return err
			}
			return reg.AddSchema("Money", money())
		}, ""},
		{"a different schema under one name is an error", func(reg *openapi.Registry) error {
			if err := reg.AddSchema("Money", money()); err != nil {
				return err
			}
			return reg.AddSchema("Money", &openapi.Schema{Type: "string"})
		}, `"Money" added twice with different schemas`},
		{"a raw schema under a Go type's name is an error", func(reg *openapi.Registry) error {
			if _, err := reg.SchemaFor(reflect.TypeFor[Address]()); err != nil {
				return err
			}
			return reg.AddSchema("Address", &openapi.Schema{Type: "string"})
		}, `"Address" used by both github.com/asapjs/fiber-template/platform/openapi_test.Address and a different schema`},
		{"a raw schema equal to a Go type's is fine", func(reg *openapi.Registry) error {
			if _, err := reg.SchemaFor(reflect.TypeFor[Address]()); err != nil {
				return err
			}
			return reg.AddSchema("Address", &openapi.Schema{Type: "object", Properties: map[string]*openapi.Schema{"city": {Type: "string"}}})
		}, ""},
		{"a Go type under a raw schema's name is an error", func(reg *openapi.Registry) error {
			if err := reg.AddSchema("Address", &openapi.Schema{Type: "string"}); err != nil {
				return err
			}
			_, err := reg.SchemaFor(reflect.TypeFor[Address]())
			return err
		}, `"Address" used by both a schema added by AddSchema and github.com/asapjs/fiber-template/platform/openapi_test.Address`},
		{"a name OpenAPI does not allow is an error", func(reg *openapi.Registry) error {
			return reg.AddSchema("Money Amount", money())
		}, "letters, digits"},
		{"a nil schema is an error", func(reg *openapi.Registry) error {
			return reg.AddSchema("Money", nil)
		}, "is nil"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := tc.steps(openapi.New(openapi.Config{}))
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("got error %v", err)
			case tc.wantErr != "" && err == nil:
				t.Fatalf("got no error, want one mentioning %q", tc.wantErr)
			case tc.wantErr != "" && !strings.Contains(err.Error(), tc.wantErr):
				t.Fatalf("error %q does not mention %q", err, tc.wantErr)
			}
		})
	}
}

func TestAddSchemaKeepsZeroValues(t *testing.T) {
	t.Parallel()
	reg := openapi.New(openapi.Config{})
	s := &openapi.Schema{Type: "integer", Minimum: ptr(0.0), Default: 0, Example: 0}
	if err := reg.AddSchema("Count", s); err != nil {
		t.Fatalf("AddSchema: %v", err)
	}
	// The registry keeps its own copy.
	s.Minimum = ptr(5.0)
	doc, err := reg.Document()
	if err != nil {
		t.Fatalf("Document: %v", err)
	}
	assertJSON(t, doc.Components.Schemas["Count"], `{"type":"integer","minimum":0,"default":0,"example":0}`)
}

func TestBuiltRegistryRejectsChanges(t *testing.T) {
	t.Parallel()
	reg := openapi.New(openapi.Config{})
	if _, err := reg.SchemaFor(reflect.TypeFor[Address]()); err != nil {
		t.Fatalf("SchemaFor: %v", err)
	}
	first, err := reg.JSON()
	if err != nil {
		t.Fatalf("JSON: %v", err)
	}
	cases := []struct {
		name     string
		call     func() error
		wantBuil bool
	}{
		{"adding a route is refused", func() error { _, _, err := reg.AddRoute(openapi.Route{Method: "GET", Path: "/x"}); return err }, true},
		{"adding a schema is refused", func() error { return reg.AddSchema("X", &openapi.Schema{Type: "string"}) }, true},
		{"a type needing a new component is refused", func() error { _, err := reg.SchemaFor(reflect.TypeFor[User]()); return err }, true},
		{"a known component is still answered", func() error { _, err := reg.SchemaFor(reflect.TypeFor[Address]()); return err }, false},
		{"an inline type is still answered", func() error { _, err := reg.SchemaFor(reflect.TypeFor[[]int]()); return err }, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			if got := errors.Is(err, openapi.ErrBuilt); got != tc.wantBuil {
				t.Errorf("error = %v, want ErrBuilt %v", err, tc.wantBuil)
			}
			if !tc.wantBuil && err != nil {
				t.Errorf("got error %v", err)
			}
		})
	}
	again, err := reg.JSON()
	if err != nil {
		t.Fatalf("JSON: %v", err)
	}
	if !bytes.Equal(first, again) {
		t.Error("the cached document changed")
	}
}

func TestDanglingRefs(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		schema *openapi.Schema
		want   []string
	}{
		{"a reference to a missing component", &openapi.Schema{Type: "array", Items: &openapi.Schema{Ref: openapi.Ref("Missing")}},
			[]string{"components.schemas.Broken.items", `dangling $ref "#/components/schemas/Missing"`}},
		{"a reference out of the components", &openapi.Schema{AllOf: []*openapi.Schema{{Ref: "#/definitions/Old"}}},
			[]string{"components.schemas.Broken.allOf[0]", "#/definitions/Old"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			reg := openapi.New(openapi.Config{})
			if err := reg.AddSchema("Broken", tc.schema); err != nil {
				t.Fatalf("AddSchema: %v", err)
			}
			_, err := reg.JSON()
			if err == nil {
				t.Fatal("JSON succeeded, want a dangling reference error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			if _, err := reg.Document(); err == nil {
				t.Error("Document succeeded after JSON failed")
			}
		})
	}
}

func TestFailedBuildCanBeFixed(t *testing.T) {
	t.Parallel()
	reg := openapi.New(openapi.Config{})
	if err := reg.AddSchema("Wrapper", &openapi.Schema{Ref: openapi.Ref("Inner")}); err != nil {
		t.Fatalf("AddSchema: %v", err)
	}
	if _, err := reg.JSON(); err == nil {
		t.Fatal("JSON succeeded with a dangling reference")
	}
	if err := reg.AddSchema("Inner", &openapi.Schema{Type: "string"}); err != nil {
		t.Fatalf("AddSchema after a failed build: %v", err)
	}
	if _, err := reg.JSON(); err != nil {
		t.Fatalf("JSON after the fix: %v", err)
	}
}

func TestBaseDocument(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		cfg  openapi.Config
		want string
	}{
		{"an empty config takes the defaults", openapi.Config{}, `{
			"openapi":"3.0.0",
			"info":{"title":"API","version":"1.0.0"},
			"servers":[{"url":"/"}],
			"paths":{},
			"components":{"schemas":{},"securitySchemes":{"bearerAuth":{"type":"http","scheme":"bearer","bearerFormat":"JWT"}}},
			"security":[{"bearerAuth":[]}]}`},
		{"a full config fills info, server and the login flow", openapi.Config{
			Title: "Shop", Version: "2.0.0", Description: "Sells things",
			License:   &openapi.License{Name: "MIT"},
			ServerURL: "https://shop.example.com/api/", TokenURL: "/api/auth/login",
		}, `{
			"openapi":"3.0.0",
			"info":{"title":"Shop","version":"2.0.0","description":"Sells things","license":{"name":"MIT"}},
			"servers":[{"url":"https://shop.example.com/api"}],
			"paths":{},
			"components":{"schemas":{},"securitySchemes":{
				"bearerAuth":{"type":"http","scheme":"bearer","bearerFormat":"JWT"},
				"OAuthLogin":{"type":"oauth2","flows":{"password":{"tokenUrl":"/api/auth/login","scopes":{}}}}}},
			"security":[{"OAuthLogin":[]},{"bearerAuth":[]}]}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, err := openapi.New(tc.cfg).JSON()
			if err != nil {
				t.Fatalf("JSON: %v", err)
			}
			assertJSON(t, json.RawMessage(b), tc.want)
		})
	}
}

func TestTagsListOnlyUsedTags(t *testing.T) {
	t.Parallel()
	reg := openapi.New(openapi.Config{TagDescriptions: map[string]string{"b": "Bees", "unused": "Never"}})
	for _, rt := range []openapi.Route{
		{Method: "GET", Path: "/b", Tag: "b"},
		{Method: "GET", Path: "/a", Tag: "a"},
		{Method: "POST", Path: "/a", Tag: "a"},
		{Method: "GET", Path: "/none"},
	} {
		if _, _, err := reg.AddRoute(rt); err != nil {
			t.Fatalf("AddRoute: %v", err)
		}
	}
	doc, err := reg.Document()
	if err != nil {
		t.Fatalf("Document: %v", err)
	}
	assertJSON(t, doc.Tags, `[{"name":"a"},{"name":"b","description":"Bees"}]`)
}

func TestDocumentIsACopy(t *testing.T) {
	t.Parallel()
	reg := usersRegistry(t)
	doc, err := reg.Document()
	if err != nil {
		t.Fatalf("Document: %v", err)
	}
	b, err := reg.JSON()
	if err != nil {
		t.Fatalf("JSON: %v", err)
	}
	fromDoc, err := json.Marshal(doc)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	if !bytes.Equal(fromDoc, b) {
		t.Errorf("the typed document marshals differently from JSON:\n%s\n%s", fromDoc, b)
	}
	doc.Info.Title = "changed"
	delete(doc.Components.Schemas, "User")
	again, err := reg.Document()
	if err != nil {
		t.Fatalf("Document: %v", err)
	}
	if again.Info.Title != "Users API" || again.Components.Schemas["User"] == nil {
		t.Error("changing one document changed the next")
	}
}

func TestSchemaForReturnsACopy(t *testing.T) {
	t.Parallel()
	reg := openapi.New(openapi.Config{})
	typ := reflect.TypeFor[[]string]()
	s, err := reg.SchemaFor(typ)
	if err != nil {
		t.Fatalf("SchemaFor: %v", err)
	}
	s.Items.Type = "integer"
	again, err := reg.SchemaFor(typ)
	if err != nil {
		t.Fatalf("SchemaFor: %v", err)
	}
	assertJSON(t, again, `{"type":"array","items":{"type":"string"}}`)
}

func TestConcurrentUse(t *testing.T) {
	t.Parallel()
	reg := openapi.New(openapi.Config{})
	types := []reflect.Type{
		reflect.TypeFor[User](), reflect.TypeFor[paging.Page[User]](), reflect.TypeFor[Account](),
		reflect.TypeFor[Node](), reflect.TypeFor[[]Address](), reflect.TypeFor[map[string]*Settings](),
	}
	var wg sync.WaitGroup
	errs := make(chan error, 1000)
	for g := range 16 {
		wg.Go(func() {
			for i := range 50 {
				typ := types[(g+i)%len(types)]
				if _, err := reg.SchemaFor(typ); err != nil {
					errs <- fmt.Errorf("SchemaFor(%s): %w", typ, err)
				}
				// Every goroutine adds the same shared schema and one of its own.
				if err := reg.AddSchema("Shared", &openapi.Schema{Type: "string", MinLength: ptr(1)}); err != nil {
					errs <- err
				}
				if err := reg.AddSchema(fmt.Sprintf("Own%d", g), &openapi.Schema{Type: "integer"}); err != nil {
					errs <- err
				}
				if err := reg.AddSchema("Shared", &openapi.Schema{Type: "boolean"}); err == nil {
					errs <- errors.New("a different Shared schema was accepted")
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	doc, err := reg.Document()
	if err != nil {
		t.Fatalf("Document: %v", err)
	}
	// User, UserPage, Account, Address, Node, Settings, Shared and 16 Own.
	if got, want := len(doc.Components.Schemas), 7+16; got != want {
		t.Errorf("got %d components, want %d", got, want)
	}
}

func TestConcurrentBuild(t *testing.T) {
	t.Parallel()
	reg := usersRegistry(t)
	var wg sync.WaitGroup
	results := make([][]byte, 8)
	for i := range results {
		wg.Go(func() {
			b, err := reg.JSON()
			if err != nil {
				t.Errorf("JSON: %v", err)
			}
			results[i] = b
		})
	}
	wg.Wait()
	for _, b := range results[1:] {
		if !bytes.Equal(b, results[0]) {
			t.Fatal("concurrent builds returned different documents")
		}
	}
}
