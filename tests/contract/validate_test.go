package contract

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/asapjs/fiber-template/internal/testkit"
)

// TestContractValidates checks both committed documents against the
// OpenAPI Initiative's JSON Schema of their version, 3.0's (2021-09-28) and
// 3.1's (2022-10-07), kept in testdata as pb33f/libopenapi ships them (a
// newer one from spec.openapis.org replaces its file). The validator,
// santhosh-tekuri/jsonschema, a maintained implementation of JSON Schema
// drafts 4 to 2020-12, runs in the test process: no tool is built for it.
// kin-openapi and Redocly check the served documents in tests/integration.
// Copies broken on purpose must fail it, so a validator that accepts
// anything cannot pass for one.
func TestContractValidates(t *testing.T) {
	t.Parallel()
	root := testkit.RepoRoot(t)
	for _, tc := range []struct{ document, schema string }{
		{"openapi.json", "openapi-3.0-schema.json"},
		{"openapi-3.1.json", "openapi-3.1-schema.json"},
	} {
		t.Run(tc.document, func(t *testing.T) {
			t.Parallel()
			schema := compileSchema(t, filepath.Join("testdata", tc.schema))
			path := filepath.Join(root, "api", tc.document)
			if err := schema.Validate(readDocument(t, path)); err != nil {
				t.Errorf("api/%s does not validate against its specification's schema: %v", tc.document, err)
			}
			for _, brk := range breaks {
				doc := readDocument(t, path)
				brk.apply(t, doc)
				if err := schema.Validate(doc); err == nil {
					t.Errorf("api/%s with %s validates", tc.document, brk.name)
				}
			}
		})
	}
}

// breaks are changes no OpenAPI version allows; each must make a valid
// document invalid.
var breaks = []struct {
	name  string
	apply func(t *testing.T, doc map[string]any)
}{
	{"a response description that is a number", func(t *testing.T, doc map[string]any) {
		ops := member(t, member(t, doc, "paths"), "/health-check")
		response := member(t, member(t, member(t, ops, "get"), "responses"), "200")
		response["description"] = json.Number("7")
	}},
	{"a path that does not start with a slash", func(t *testing.T, doc map[string]any) {
		paths := member(t, doc, "paths")
		paths["health-check"] = paths["/health-check"]
		delete(paths, "/health-check")
	}},
	{"no info", func(t *testing.T, doc map[string]any) {
		delete(doc, "info")
	}},
}

// compileSchema compiles the JSON Schema in the file at path.
func compileSchema(t *testing.T, path string) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(path, doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	schema, err := c.Compile(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return schema
}

// readDocument decodes the JSON document at path as the validator wants
// it: numbers as json.Number.
func readDocument(t *testing.T, path string) map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v; write the contract with: task spec", err)
	}
	defer f.Close()
	v, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	doc, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%s is not a JSON object", path)
	}
	return doc
}

// member returns the object doc holds under key, failing t when there is
// none.
func member(t *testing.T, doc map[string]any, key string) map[string]any {
	t.Helper()
	m, ok := doc[key].(map[string]any)
	if !ok {
		t.Fatalf("the document has no object %q", key)
	}
	return m
}
