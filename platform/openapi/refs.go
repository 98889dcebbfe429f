package openapi

import (
	"fmt"
	"maps"
	"slices"
)

// checkRefs reports the first $ref of doc that does not name one of its
// component schemas, with where it is. Places are visited in sorted order,
// so the same document always reports the same ref.
func checkRefs(doc *Document) error {
	schemas := doc.Components.Schemas
	for _, name := range slices.Sorted(maps.Keys(schemas)) {
		if err := checkSchemaRefs(schemas[name], schemas, "components.schemas."+name); err != nil {
			return err
		}
	}
	for _, path := range slices.Sorted(maps.Keys(doc.Paths)) {
		for method, op := range doc.Paths[path].operations() {
			where := method + " " + path
			for _, p := range op.Parameters {
				if err := checkSchemaRefs(p.Schema, schemas, where+" parameter "+p.Name); err != nil {
					return err
				}
			}
			if op.RequestBody != nil {
				if err := checkContentRefs(op.RequestBody.Content, schemas, where+" requestBody"); err != nil {
					return err
				}
			}
			for _, status := range slices.Sorted(maps.Keys(op.Responses)) {
				if err := checkContentRefs(op.Responses[status].Content, schemas, where+" response "+status); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func checkContentRefs(content map[string]*MediaType, schemas map[string]*Schema, where string) error {
	for _, mt := range slices.Sorted(maps.Keys(content)) {
		if err := checkSchemaRefs(content[mt].Schema, schemas, where+" "+mt); err != nil {
			return err
		}
	}
	return nil
}

func checkSchemaRefs(s *Schema, schemas map[string]*Schema, where string) error {
	if s == nil {
		return nil
	}
	if s.Ref != "" {
		name, err := NameFromRef(s.Ref)
		if err != nil {
			return fmt.Errorf("openapi: %s: %w", where, err)
		}
		if _, ok := schemas[name]; !ok {
			return fmt.Errorf("openapi: %s: dangling $ref %q: no component schema %q", where, s.Ref, name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
		if err := checkSchemaRefs(s.Properties[name], schemas, where+".properties."+name); err != nil {
			return err
		}
	}
	subs := []struct {
		list []*Schema
		name string
	}{{s.AllOf, "allOf"}, {s.OneOf, "oneOf"}, {s.AnyOf, "anyOf"}}
	for _, sub := range subs {
		for i, e := range sub.list {
			if err := checkSchemaRefs(e, schemas, fmt.Sprintf("%s.%s[%d]", where, sub.name, i)); err != nil {
				return err
			}
		}
	}
	if err := checkSchemaRefs(s.Items, schemas, where+".items"); err != nil {
		return err
	}
	return checkSchemaRefs(s.AdditionalProperties, schemas, where+".additionalProperties")
}
