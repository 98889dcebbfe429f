package openapi

import "fmt"

// Version31 is the OpenAPI version of the document JSON31 renders.
const Version31 = "3.1.0"

// JSON31 returns the document as OpenAPI 3.1: the same operations,
// parameters, bodies, responses and components as JSON, rendered from the
// same values, with each schema in JSON Schema 2020-12:
//
//   - nullable: true becomes a type union (type: [string, "null"]), null
//     joins an enum, and a nullable reference becomes anyOf [ref, null];
//   - a boolean exclusiveMinimum or exclusiveMaximum becomes the bound;
//   - a schema's example becomes examples, a list of one.
//
// It is built on the first call and cached, as JSON is.
func (r *Registry) JSON31() ([]byte, error) {
	if _, err := r.JSON(); err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.json31 != nil {
		return r.json31, nil
	}
	var doc map[string]any
	if err := decodeDocument(r.json, &doc); err != nil {
		return nil, fmt.Errorf("openapi: read the 3.0 document: %w", err)
	}
	doc["openapi"] = Version31
	walkSchemas(doc, schema31)
	b, err := encodeDocument(doc)
	if err != nil {
		return nil, fmt.Errorf("openapi: encode the 3.1 document: %w", err)
	}
	r.json31 = b
	return r.json31, nil
}

// walkSchemas calls fn on every schema object of an OpenAPI document
// decoded into maps, the outermost first: component schemas, and the
// schemas of parameters, headers and media types wherever they are.
func walkSchemas(node any, fn func(map[string]any)) {
	switch n := node.(type) {
	case map[string]any:
		for key, v := range n {
			switch key {
			case "schema":
				walkSchema(v, fn)
			case "schemas":
				if m, ok := v.(map[string]any); ok {
					for _, s := range m {
						walkSchema(s, fn)
					}
				}
			case "example", "examples":
				// Values, not schemas: nothing in them is rewritten.
			default:
				walkSchemas(v, fn)
			}
		}
	case []any:
		for _, v := range n {
			walkSchemas(v, fn)
		}
	}
}

// walkSchema calls fn on the schema s and then on every schema inside it.
func walkSchema(s any, fn func(map[string]any)) {
	m, ok := s.(map[string]any)
	if !ok {
		return
	}
	fn(m)
	for _, key := range []string{"items", "additionalProperties", "not"} {
		walkSchema(m[key], fn)
	}
	for _, key := range []string{"allOf", "anyOf", "oneOf"} {
		if list, ok := m[key].([]any); ok {
			for _, sub := range list {
				walkSchema(sub, fn)
			}
		}
	}
	if props, ok := m["properties"].(map[string]any); ok {
		for _, p := range props {
			walkSchema(p, fn)
		}
	}
}

// schema31 rewrites one OpenAPI 3.0 schema object as JSON Schema 2020-12,
// in place; the schemas inside it are rewritten by walkSchema afterwards.
func schema31(s map[string]any) {
	for _, bound := range [][2]string{{"exclusiveMinimum", "minimum"}, {"exclusiveMaximum", "maximum"}} {
		if exclusive, ok := s[bound[0]].(bool); ok {
			delete(s, bound[0])
			if exclusive {
				s[bound[0]] = s[bound[1]]
				delete(s, bound[1])
			}
		}
	}
	if ex, ok := s["example"]; ok {
		delete(s, "example")
		s["examples"] = []any{ex}
	}
	if nullable, _ := s["nullable"].(bool); !nullable {
		delete(s, "nullable")
		return
	}
	delete(s, "nullable")
	props, _ := s["properties"].(map[string]any)
	if all, ok := s["allOf"].([]any); ok && len(all) == 1 && len(props) == 0 {
		// A nullable reference: the referenced schema or null.
		delete(s, "allOf")
		delete(s, "type")
		s["anyOf"] = []any{all[0], map[string]any{"type": "null"}}
		return
	}
	if t, ok := s["type"].(string); ok {
		s["type"] = []any{t, "null"}
	}
	if enum, ok := s["enum"].([]any); ok {
		s["enum"] = append(enum, nil)
	}
}
