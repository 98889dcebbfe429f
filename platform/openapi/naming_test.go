package openapi_test

import (
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/asapjs/fiber-template/platform/openapi"
	"github.com/asapjs/fiber-template/platform/openapi/internal/fixture/dto"
	"github.com/asapjs/fiber-template/platform/paging"
)

// Page is a generic type of the tests' own, named like paging.Page.
type Page[T any] struct {
	Items []T `json:"items"`
}

// Pair has two type parameters.
type Pair[K comparable, V any] struct {
	Key   K `json:"key"`
	Value V `json:"value"`
}

func TestComponentNames(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		typ  reflect.Type
		want string
	}{
		{"a named struct is named by its Go name", reflect.TypeFor[User](), "User"},
		{"a generic instantiation puts the argument first", reflect.TypeFor[Page[User]](), "UserPage"},
		{"the paging envelope is named the same way", reflect.TypeFor[paging.Page[User]](), "UserPage"},
		{"a basic type argument is capitalized", reflect.TypeFor[Page[int]](), "IntPage"},
		{"a slice argument is a list", reflect.TypeFor[Page[[]User]](), "UserListPage"},
		{"a pointer argument is named by its element", reflect.TypeFor[Page[*User]](), "UserPage"},
		{"a map argument names its key and value", reflect.TypeFor[Page[map[string]User]](), "StringUserMapPage"},
		{"an array argument is an array", reflect.TypeFor[Page[[2]User]](), "UserArrayPage"},
		{"an interface argument is any", reflect.TypeFor[Page[any]](), "AnyPage"},
		{"nested instantiations nest", reflect.TypeFor[Page[paging.Page[User]]](), "UserPagePage"},
		{"several arguments are joined in order", reflect.TypeFor[Pair[string, User]](), "StringUserPair"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, err := openapi.New(openapi.Config{}).SchemaFor(tc.typ)
			if err != nil {
				t.Fatalf("SchemaFor(%s): %v", tc.typ, err)
			}
			if s.Ref != openapi.Ref(tc.want) {
				t.Errorf("ref = %q, want %q", s.Ref, openapi.Ref(tc.want))
			}
		})
	}
}

func TestComponentNameConflicts(t *testing.T) {
	t.Parallel()
	const testPkg = "github.com/asapjs/fiber-template/platform/openapi_test"
	cases := []struct {
		name        string
		first, then reflect.Type
		want        []string
	}{
		{
			name:  "two structs named User in two packages clash",
			first: reflect.TypeFor[User](), then: reflect.TypeFor[dto.User](),
			want: []string{
				`schema name "User" used by both`,
				testPkg + ".User",
				"github.com/asapjs/fiber-template/platform/openapi/internal/fixture/dto.User",
			},
		},
		{
			name:  "a local Page and paging.Page of the same argument clash",
			first: reflect.TypeFor[Page[User]](), then: reflect.TypeFor[paging.Page[User]](),
			want: []string{
				`schema name "UserPage" used by both`,
				testPkg + ".Page[" + testPkg + ".User]",
				"github.com/asapjs/fiber-template/platform/paging.Page[" + testPkg + ".User]",
			},
		},
		{
			name:  "a clash in a nested type names the nested types",
			first: reflect.TypeFor[User](), then: reflect.TypeFor[Page[dto.User]](),
			want: []string{`schema name "User" used by both`, testPkg + ".User", "fixture/dto.User"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			reg := openapi.New(openapi.Config{})
			if _, err := reg.SchemaFor(tc.first); err != nil {
				t.Fatalf("SchemaFor(%s): %v", tc.first, err)
			}
			before := componentNames(t, openapi.New(openapi.Config{}), tc.first)
			_, err := reg.SchemaFor(tc.then)
			if err == nil {
				t.Fatalf("SchemaFor(%s) succeeded, want a name conflict", tc.then)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			// Nothing of the failed call was kept: not a cached reference
			// to a component that was never added, nor the component.
			if _, err := reg.SchemaFor(tc.then); err == nil {
				t.Errorf("SchemaFor(%s) succeeded the second time", tc.then)
			}
			doc, err := reg.Document()
			if err != nil {
				t.Fatalf("Document: %v", err)
			}
			after := slices.Sorted(maps.Keys(doc.Components.Schemas))
			if !slices.Equal(before, after) {
				t.Errorf("components after the failed call = %v, want %v as before it", after, before)
			}
		})
	}
}

// componentNames returns the sorted component names reg has after
// reflecting typ.
func componentNames(t *testing.T, reg *openapi.Registry, typ reflect.Type) []string {
	t.Helper()
	if _, err := reg.SchemaFor(typ); err != nil {
		t.Fatalf("SchemaFor(%s): %v", typ, err)
	}
	doc, err := reg.Document()
	if err != nil {
		t.Fatalf("Document: %v", err)
	}
	return slices.Sorted(maps.Keys(doc.Components.Schemas))
}

func TestSchemaForSameTypeTwiceIsOneComponent(t *testing.T) {
	t.Parallel()
	reg := openapi.New(openapi.Config{})
	for range 2 {
		s, err := reg.SchemaFor(reflect.TypeFor[paging.Page[User]]())
		if err != nil {
			t.Fatalf("SchemaFor: %v", err)
		}
		assertJSON(t, s, `{"$ref":"#/components/schemas/UserPage"}`)
	}
	doc, err := reg.Document()
	if err != nil {
		t.Fatalf("Document: %v", err)
	}
	if got := len(doc.Components.Schemas); got != 2 {
		t.Errorf("got %d components, want UserPage and User", got)
	}
}
