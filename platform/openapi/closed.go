package openapi

import (
	"bytes"
	"encoding/json"
)

// The router refuses a member that an object of a JSON request body does
// not declare (a map declares any). The document says so: every object a
// JSON or merge-patch request body reaches, through its component
// references too, is rendered with additionalProperties: false. Form
// bodies keep their fields open, as the router reads them.

// closedMedia are the media types whose objects refuse undeclared members.
var closedMedia = []string{MediaJSON, MediaMergePatch}

// closeRequestObjects replaces, in the components of doc, every component
// that a JSON request body reaches with a copy whose objects are Closed.
// (The schemas of doc are the registry's, so they are replaced, not
// changed; an inline body schema is closed when its route is added.)
func closeRequestObjects(doc *Document) {
	reached := map[string]bool{}
	var todo []string
	reach := func(s *Schema) {
		s.walk(func(s *Schema) {
			if name, err := NameFromRef(s.Ref); s.Ref != "" && err == nil && !reached[name] {
				reached[name] = true
				todo = append(todo, name)
			}
		})
	}
	for _, item := range doc.Paths {
		for _, op := range item.operations() {
			if op.RequestBody == nil {
				continue
			}
			for _, mt := range closedMedia {
				if m := op.RequestBody.Content[mt]; m != nil {
					reach(m.Schema)
				}
			}
		}
	}
	for len(todo) > 0 {
		name := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		reach(doc.Components.Schemas[name])
	}
	for name := range reached {
		if s := doc.Components.Schemas[name]; s != nil {
			doc.Components.Schemas[name] = closedCopy(s)
		}
	}
}

// closedCopy returns a deep copy of s in which every plain object (one
// with no additionalProperties and no composition) is Closed.
func closedCopy(s *Schema) *Schema {
	c := s.clone()
	c.walk(func(s *Schema) {
		if s.Type == "object" && s.AdditionalProperties == nil && len(s.AllOf)+len(s.OneOf)+len(s.AnyOf) == 0 {
			s.Closed = true
		}
	})
	return c
}

// plainSchema is Schema without its JSON methods.
type plainSchema Schema

// MarshalJSON writes s, with additionalProperties: false when it is Closed.
// It escapes no HTML, as encodeDocument; an encoder that does escapes the
// result itself.
func (s *Schema) MarshalJSON() ([]byte, error) {
	if !s.Closed {
		return encodeDocument((*plainSchema)(s))
	}
	return encodeDocument(struct {
		*plainSchema
		AdditionalProperties bool `json:"additionalProperties"`
	}{(*plainSchema)(s), false})
}

// UnmarshalJSON reads a schema as MarshalJSON writes it: additionalProperties
// false makes it Closed, true an empty schema (any value). Numbers in
// values stay json.Number, as decodeDocument keeps them.
func (s *Schema) UnmarshalJSON(b []byte) error {
	aux := struct {
		*plainSchema
		AdditionalProperties json.RawMessage `json:"additionalProperties"`
	}{plainSchema: (*plainSchema)(s)}
	if err := decodeDocument(b, &aux); err != nil {
		return err
	}
	switch raw := bytes.TrimSpace(aux.AdditionalProperties); string(raw) {
	case "", "null":
		return nil
	case "false":
		s.Closed = true
		return nil
	case "true":
		s.AdditionalProperties = &Schema{}
		return nil
	default:
		s.AdditionalProperties = &Schema{}
		return decodeDocument(raw, s.AdditionalProperties)
	}
}
