package openapi

import (
	"fmt"
	"strings"
)

// patchBody documents a merge patch body: the schema of its target (a
// component, which a patched value is checked by) and, beside it, the
// component "<Target>Patch" that a patch is checked by (patchSchema).
func (g *gen) patchBody(b *InputBody) (*Schema, error) {
	target, err := g.schemaOf(b.Patch)
	if err != nil {
		return nil, err
	}
	b.Target = target
	targetName := strings.TrimPrefix(target.Ref, refPrefix)
	name := targetName + "Patch"
	if err := g.r.claim(name, b.Type); err != nil {
		return nil, err
	}
	if _, ok := g.r.schemas[name]; !ok {
		g.r.schemas[name] = patchSchema(targetName, g.r.schemas[targetName])
		g.r.owners[name] = b.Type
		g.names = append(g.names, name)
	}
	return refTo(name), nil
}

// patchSchema is the schema of a JSON merge patch (RFC 7396) of the object
// schema target, named name: the same members, none required and none
// with a default, since a member left out stays as it is; null where the
// target's member is nullable, since null removes the member, and refused
// (422) where it is not. A member that is an object is merged into rather
// than replaced, so any object is accepted there: the patched value is
// checked against the target's schema as a whole.
func patchSchema(name string, target *Schema) *Schema {
	s := &Schema{
		Type: "object",
		Description: fmt.Sprintf("A JSON merge patch (RFC 7396) of %s: members left out stay as they are, "+
			"null removes a nullable member, and the result must be a valid %s.", name, name),
		Properties: map[string]*Schema{},
	}
	for member, prop := range target.Properties {
		p := *prop
		p.Default = nil
		if p.Ref != "" || p.Type == "object" {
			p = Schema{Type: "object", Description: prop.Description, Nullable: prop.Nullable, AdditionalProperties: &Schema{}}
		}
		s.Properties[member] = &p
	}
	return s
}
