package openapi_test

import (
	"encoding/json"
	"mime/multipart"
	"net"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/asapjs/fiber-template/platform/openapi"
)

type (
	Address struct {
		City string `json:"city"`
	}
	Audit struct {
		CreatedBy string `json:"created_by"`
	}
	Account struct {
		Audit
		*Settings
		Name    string   `json:"name"`
		Home    Address  `json:"home"`
		Work    *Address `json:"work"`
		private string   //lint:ignore U1000 unexported fields must stay out of the schema
	}
	Stamp struct {
		Author string `json:"created_by"`
	}
	Settings struct {
		Theme string `json:"theme"`
	}
	Node struct {
		Value    int     `json:"value"`
		Children []*Node `json:"children"`
	}
	Level  int
	Labels map[string]string
)

func TestSchemaForKinds(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		typ  reflect.Type
		want string
	}{
		{"a string is a string", reflect.TypeFor[string](), `{"type":"string"}`},
		{"a bool is a boolean", reflect.TypeFor[bool](), `{"type":"boolean"}`},
		{"an int8 is an int32 integer", reflect.TypeFor[int8](), `{"type":"integer","format":"int32"}`},
		{"an int16 is an int32 integer", reflect.TypeFor[int16](), `{"type":"integer","format":"int32"}`},
		{"an int32 is an int32 integer", reflect.TypeFor[int32](), `{"type":"integer","format":"int32"}`},
		{"a uint8 is a non-negative int32 integer", reflect.TypeFor[uint8](), `{"type":"integer","format":"int32","minimum":0}`},
		{"a uint16 is a non-negative int32 integer", reflect.TypeFor[uint16](), `{"type":"integer","format":"int32","minimum":0}`},
		{"an int is an int64 integer", reflect.TypeFor[int](), `{"type":"integer","format":"int64"}`},
		{"an int64 is an int64 integer", reflect.TypeFor[int64](), `{"type":"integer","format":"int64"}`},
		{"a uint is a non-negative integer past the int64 format", reflect.TypeFor[uint](), `{"type":"integer","minimum":0}`},
		{"a uint32 is a non-negative int64 integer", reflect.TypeFor[uint32](), `{"type":"integer","format":"int64","minimum":0}`},
		{"a uint64 is a non-negative integer past the int64 format", reflect.TypeFor[uint64](), `{"type":"integer","minimum":0}`},
		{"a float32 is a float number", reflect.TypeFor[float32](), `{"type":"number","format":"float"}`},
		{"a float64 is a double number", reflect.TypeFor[float64](), `{"type":"number","format":"double"}`},
		{"a named integer is its kind", reflect.TypeFor[Level](), `{"type":"integer","format":"int64"}`},
		{"a time is a date-time string", reflect.TypeFor[time.Time](), `{"type":"string","format":"date-time"}`},
		{"a byte slice is a base64 string", reflect.TypeFor[[]byte](), `{"type":"string","format":"byte"}`},
		{"a text marshaler is a string", reflect.TypeFor[net.IP](), `{"type":"string"}`},
		{"a raw message is any value", reflect.TypeFor[json.RawMessage](), `{}`},
		{"an interface is any value", reflect.TypeFor[any](), `{}`},
		{"a pointer to an interface is any value", reflect.TypeFor[*any](), `{}`},
		{"a slice is an array of its elements", reflect.TypeFor[[]string](), `{"type":"array","items":{"type":"string"}}`},
		{"an array has a fixed length", reflect.TypeFor[[3]int](), `{"type":"array","items":{"type":"integer","format":"int64"},"minItems":3,"maxItems":3}`},
		{"a string map is an object of its values", reflect.TypeFor[map[string]int](), `{"type":"object","additionalProperties":{"type":"integer","format":"int64"}}`},
		{"a map of any is an object of anything", reflect.TypeFor[map[string]any](), `{"type":"object","additionalProperties":{}}`},
		{"a named map is its kind", reflect.TypeFor[Labels](), `{"type":"object","additionalProperties":{"type":"string"}}`},
		{"a pointer is nullable", reflect.TypeFor[*int](), `{"type":"integer","format":"int64","nullable":true}`},
		{"a pointer to a pointer is nullable once", reflect.TypeFor[**string](), `{"type":"string","nullable":true}`},
		{"a pointer to a named struct is a nullable allOf", reflect.TypeFor[*Address](),
			`{"type":"object","nullable":true,"allOf":[{"$ref":"#/components/schemas/Address"}]}`},
		{"a file is a binary string", reflect.TypeFor[*multipart.FileHeader](), `{"type":"string","format":"binary"}`},
		{"files are an array of binary strings", reflect.TypeFor[[]*multipart.FileHeader](),
			`{"type":"array","items":{"type":"string","format":"binary"}}`},
		{"a named struct is a reference", reflect.TypeFor[Address](), `{"$ref":"#/components/schemas/Address"}`},
		{"a slice of named structs is an array of references", reflect.TypeFor[[]Address](),
			`{"type":"array","items":{"$ref":"#/components/schemas/Address"}}`},
		{"an anonymous struct is inline", reflect.TypeFor[struct {
			A string `json:"a"`
			B *int   `json:"b,omitempty"`
		}](), `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer","format":"int64","nullable":true}}}`},
		{"an empty struct is an object", reflect.TypeFor[struct{}](), `{"type":"object"}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, err := openapi.New(openapi.Config{}).SchemaFor(tc.typ)
			if err != nil {
				t.Fatalf("SchemaFor(%s): %v", tc.typ, err)
			}
			assertJSON(t, s, tc.want)
		})
	}
}

func TestSchemaForComponents(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name       string
		typ        reflect.Type
		components map[string]string
	}{
		{
			name: "embedded structs are flattened and nested named structs are references",
			typ:  reflect.TypeFor[Account](),
			components: map[string]string{
				"Account": `{"type":"object","properties":{
					"created_by":{"type":"string"},
					"theme":{"type":"string"},
					"name":{"type":"string"},
					"home":{"$ref":"#/components/schemas/Address"},
					"work":{"type":"object","nullable":true,"allOf":[{"$ref":"#/components/schemas/Address"}]}}}`,
				"Address": `{"type":"object","properties":{"city":{"type":"string"}}}`,
			},
		},
		{
			name: "a recursive type refers to itself",
			typ:  reflect.TypeFor[Node](),
			components: map[string]string{
				"Node": `{"type":"object","properties":{
					"value":{"type":"integer","format":"int64"},
					"children":{"type":"array","items":{"type":"object","nullable":true,"allOf":[{"$ref":"#/components/schemas/Node"}]}}}}`,
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			reg := openapi.New(openapi.Config{})
			if _, err := reg.SchemaFor(tc.typ); err != nil {
				t.Fatalf("SchemaFor(%s): %v", tc.typ, err)
			}
			doc, err := reg.Document()
			if err != nil {
				t.Fatalf("Document: %v", err)
			}
			if len(doc.Components.Schemas) != len(tc.components) {
				t.Errorf("got %d components, want %d", len(doc.Components.Schemas), len(tc.components))
			}
			for name, want := range tc.components {
				got, ok := doc.Components.Schemas[name]
				if !ok {
					t.Errorf("no component %q", name)
					continue
				}
				assertJSON(t, got, want)
			}
		})
	}
}

// fieldSchema returns the property F of the inline object of the anonymous
// struct type typ, and whether F is required.
func fieldSchema(t *testing.T, typ reflect.Type) (*openapi.Schema, bool) {
	t.Helper()
	s, err := openapi.New(openapi.Config{}).SchemaFor(typ)
	if err != nil {
		t.Fatalf("SchemaFor(%s): %v", typ, err)
	}
	for _, r := range s.Required {
		if r != "f" {
			t.Fatalf("required lists %q, want only f", r)
		}
	}
	return s.Properties["f"], len(s.Required) == 1
}

func TestSchemaForTags(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		typ      reflect.Type
		want     string
		required bool
	}{
		{"doc is the description", reflect.TypeFor[struct {
			F string `json:"f" doc:"The name"`
		}](), `{"type":"string","description":"The name"}`, false},
		{"format overrides the format of the type", reflect.TypeFor[struct {
			F string `json:"f" format:"password"`
		}](), `{"type":"string","format":"password"}`, false},
		{"an int32 format narrows an int", reflect.TypeFor[struct {
			F int `json:"f" format:"int32"`
		}](), `{"type":"integer","format":"int32"}`, false},
		{"oneof values of a string are strings", reflect.TypeFor[struct {
			F string `json:"f" validate:"oneof=a b"`
		}](), `{"type":"string","enum":["a","b"]}`, false},
		{"oneof values of an integer are numbers", reflect.TypeFor[struct {
			F int `json:"f" validate:"oneof=1 2 3"`
		}](), `{"type":"integer","format":"int64","enum":[1,2,3]}`, false},
		{"oneof values after dive restrict a slice's items", reflect.TypeFor[struct {
			F []string `json:"f" validate:"dive,oneof=x y"`
		}](), `{"type":"array","items":{"type":"string","enum":["x","y"]}}`, false},
		{"an example is typed", reflect.TypeFor[struct {
			F float64 `json:"f" example:"1.5"`
		}](), `{"type":"number","format":"double","example":1.5}`, false},
		{"a slice example takes comma-separated items", reflect.TypeFor[struct {
			F []int `json:"f" example:"1,2"`
		}](), `{"type":"array","items":{"type":"integer","format":"int64"},"example":[1,2]}`, false},
		{"an object example is JSON", reflect.TypeFor[struct {
			F map[string]int `json:"f" example:"{\"a\":1}"`
		}](), `{"type":"object","additionalProperties":{"type":"integer","format":"int64"},"example":{"a":1}}`, false},
		{"a zero default is kept", reflect.TypeFor[struct {
			F int `json:"f" default:"0"`
		}](), `{"type":"integer","format":"int64","default":0}`, false},
		{"a false default is kept", reflect.TypeFor[struct {
			F bool `json:"f" default:"false"`
		}](), `{"type":"boolean","default":false}`, false},
		{"a zero minimum is kept", reflect.TypeFor[struct {
			F int `json:"f" minimum:"0" maximum:"10"`
		}](), `{"type":"integer","format":"int64","minimum":0,"maximum":10}`, false},
		{"pattern is the pattern", reflect.TypeFor[struct {
			F string `json:"f" pattern:"^[a-z]+$"`
		}](), `{"type":"string","pattern":"^[a-z]+$"}`, false},
		{"the json name names the property", reflect.TypeFor[struct {
			F string `json:"f,omitempty"`
		}](), `{"type":"string"}`, false},
		{"validate required makes the property required", reflect.TypeFor[struct {
			F string `json:"f" validate:"required"`
		}](), `{"type":"string","minLength":1}`, true},
		{"validate required makes a pointer required and not nullable", reflect.TypeFor[struct {
			F *int `json:"f" validate:"required"`
		}](), `{"type":"integer","format":"int64"}`, true},
		{"validate required makes a pointer to a struct a plain reference", reflect.TypeFor[struct {
			F *Address `json:"f" validate:"required"`
		}](), `{"$ref":"#/components/schemas/Address"}`, true},
		{"validate oneof is an enum", reflect.TypeFor[struct {
			F string `json:"f" validate:"required,oneof=red green 'light blue'"`
		}](), `{"type":"string","enum":["red","green","light blue"]}`, true},
		{"validate oneof of an integer is numbers", reflect.TypeFor[struct {
			F int8 `json:"f" validate:"oneof=1 2"`
		}](), `{"type":"integer","format":"int32","enum":[1,2]}`, false},
		{"validate min and max of a string bound its length", reflect.TypeFor[struct {
			F string `json:"f" validate:"min=2,max=5"`
		}](), `{"type":"string","minLength":2,"maxLength":5}`, false},
		{"validate len of a string fixes its length", reflect.TypeFor[struct {
			F string `json:"f" validate:"len=4"`
		}](), `{"type":"string","minLength":4,"maxLength":4}`, false},
		{"validate min and max of a slice bound its items", reflect.TypeFor[struct {
			F []string `json:"f" validate:"min=1,max=3"`
		}](), `{"type":"array","items":{"type":"string"},"minItems":1,"maxItems":3}`, false},
		{"validate min and max of a number bound its value", reflect.TypeFor[struct {
			F int `json:"f" validate:"min=0,max=9"`
		}](), `{"type":"integer","format":"int64","minimum":0,"maximum":9}`, false},
		{"validate gte and lte bound a number inclusively", reflect.TypeFor[struct {
			F float64 `json:"f" validate:"gte=0.5,lte=2"`
		}](), `{"type":"number","format":"double","minimum":0.5,"maximum":2}`, false},
		{"validate gt and lt bound a number exclusively", reflect.TypeFor[struct {
			F int `json:"f" validate:"gt=0,lt=10"`
		}](), `{"type":"integer","format":"int64","minimum":0,"exclusiveMinimum":true,"maximum":10,"exclusiveMaximum":true}`, false},
		{"validate gt and lt of a string move the length bounds", reflect.TypeFor[struct {
			F string `json:"f" validate:"gt=0,lt=10"`
		}](), `{"type":"string","minLength":1,"maxLength":9}`, false},
		{"validate min of a map bounds its properties", reflect.TypeFor[struct {
			F map[string]string `json:"f" validate:"min=1"`
		}](), `{"type":"object","additionalProperties":{"type":"string"},"minProperties":1}`, false},
		{"validate email is the email format", reflect.TypeFor[struct {
			F string `json:"f" validate:"required,email"`
		}](), `{"type":"string","format":"email"}`, true},
		{"validate uuid4 is the uuid format", reflect.TypeFor[struct {
			F string `json:"f" validate:"uuid4"`
		}](), `{"type":"string","format":"uuid"}`, false},
		{"validate url is the uri format", reflect.TypeFor[struct {
			F string `json:"f" validate:"url"`
		}](), `{"type":"string","format":"uri"}`, false},
		{"validate omitempty is ignored", reflect.TypeFor[struct {
			F string `json:"f" validate:"omitempty,max=3"`
		}](), `{"type":"string","maxLength":3}`, false},
		{"validate rules after dive apply to the items", reflect.TypeFor[struct {
			F []string `json:"f" validate:"required,max=2,dive,required,email"`
		}](), `{"type":"array","items":{"type":"string","format":"email","minLength":1},"maxItems":2}`, true},
		{"an explicit format wins over validate", reflect.TypeFor[struct {
			F string `json:"f" format:"idn-email" validate:"email"`
		}](), `{"type":"string","format":"idn-email"}`, false},
		{"doc on a named struct wraps its reference", reflect.TypeFor[struct {
			F Address `json:"f" doc:"Where"`
		}](), `{"allOf":[{"$ref":"#/components/schemas/Address"}],"description":"Where"}`, false},
		{"doc on a nullable named struct sits beside its allOf", reflect.TypeFor[struct {
			F *Address `json:"f" doc:"Where"`
		}](), `{"type":"object","nullable":true,"description":"Where","allOf":[{"$ref":"#/components/schemas/Address"}]}`, false},
		{"tags of a file field apply", reflect.TypeFor[struct {
			F *multipart.FileHeader `json:"f" doc:"Photo" validate:"required"`
		}](), `{"type":"string","format":"binary","description":"Photo"}`, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, required := fieldSchema(t, tc.typ)
			if got == nil {
				t.Fatal("no property f")
			}
			assertJSON(t, got, tc.want)
			if required != tc.required {
				t.Errorf("required = %v, want %v", required, tc.required)
			}
		})
	}
}

func TestSchemaForSkipsFields(t *testing.T) {
	t.Parallel()
	type T struct {
		Kept     string `json:"kept"`
		Untagged string
		Skipped  string `json:"-"`
		hidden   string //lint:ignore U1000 unexported fields must stay out of the schema
	}
	s, err := openapi.New(openapi.Config{}).SchemaFor(reflect.TypeFor[struct{ T }]())
	if err != nil {
		t.Fatalf("SchemaFor: %v", err)
	}
	assertJSON(t, s, `{"type":"object","properties":{"kept":{"type":"string"},"Untagged":{"type":"string"}}}`)
}

func TestSchemaForRejects(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		typ  reflect.Type
		want []string // substrings of the error
	}{
		{"a channel field is unsupported", reflect.TypeFor[struct {
			Events chan int `json:"events"`
		}](), []string{"Events", "chan int"}},
		{"a function field is unsupported", reflect.TypeFor[struct {
			Hook func() `json:"hook"`
		}](), []string{"Hook", "func()"}},
		{"a complex number is unsupported", reflect.TypeFor[complex128](), []string{"complex128"}},
		{"a map with integer keys is unsupported", reflect.TypeFor[struct {
			ByID map[int]string `json:"by_id"`
		}](), []string{"ByID", "map key type int"}},
		{"an integer oneof must hold integers", reflect.TypeFor[struct {
			Level int `json:"level" validate:"oneof=low high"`
		}](), []string{"Level", `"low" is not an integer`}},
		{"the enum tag is refused: oneof states allowed values", reflect.TypeFor[struct {
			Level string `json:"level" enum:"low,high"`
		}](), []string{"Level", "enum tag", "oneof"}},
		{"a boolean default must be a boolean", reflect.TypeFor[struct {
			On bool `json:"on" default:"yes"`
		}](), []string{"On", "default tag"}},
		{"a minimum must be a number", reflect.TypeFor[struct {
			N int `json:"n" minimum:"none"`
		}](), []string{"N", "minimum tag"}},
		{"a length bound must be a count", reflect.TypeFor[struct {
			S string `json:"s" validate:"max=ten"`
		}](), []string{"S", "max=ten"}},
		{"two fields with one name at one depth clash", reflect.StructOf([]reflect.StructField{
			{Name: "A", Type: reflect.TypeFor[string](), Tag: `json:"x"`},
			{Name: "B", Type: reflect.TypeFor[string](), Tag: `json:"x"`},
		}), []string{`both have the name "x"`}},
		{"two embedded structs with a field of one name clash", reflect.StructOf([]reflect.StructField{
			{Name: "Audit", Type: reflect.TypeFor[Audit](), Anonymous: true},
			{Name: "Stamp", Type: reflect.TypeFor[Stamp](), Anonymous: true},
		}), []string{"Audit.CreatedBy", "Stamp.Author", `both have the name "created_by"`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := openapi.New(openapi.Config{}).SchemaFor(tc.typ)
			if err == nil {
				t.Fatalf("SchemaFor(%s) succeeded, want an error", tc.typ)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestSchemaForRefusesRulesWithoutASchemaForm(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		typ  reflect.Type
		want string
	}{
		{"alternatives", reflect.TypeFor[struct {
			F string `json:"f" validate:"email|uuid"`
		}](), "alternatives have no schema form"},
		{"a rule with no counterpart", reflect.TypeFor[struct {
			F string `json:"f" validate:"alphanum"`
		}](), `validate rule "alphanum" has no schema form`},
		{"dive on a string", reflect.TypeFor[struct {
			F string `json:"f" validate:"dive,email"`
		}](), "dive needs an array"},
		{"a bound on a boolean", reflect.TypeFor[struct {
			F bool `json:"f" validate:"max=1"`
		}](), "needs a string, number, array or map"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := openapi.New(openapi.Config{}).SchemaFor(tc.typ)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("SchemaFor(%s) = %v, want an error mentioning %q", tc.typ, err, tc.want)
			}
		})
	}
}
