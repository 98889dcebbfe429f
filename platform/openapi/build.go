package openapi

import (
	"maps"
	"slices"
)

// document assembles the document from what the Registry holds. It shares
// the Registry's schemas and operations, so it is only encoded, with the
// mutex held.
func (r *Registry) document() *Document {
	doc := &Document{
		OpenAPI: "3.0.0",
		Info: Info{
			Title:       r.cfg.Title,
			Version:     r.cfg.Version,
			Description: r.cfg.Description,
			License:     r.cfg.License,
		},
		Servers: []Server{{URL: r.cfg.ServerURL}},
		Paths:   maps.Clone(r.paths),
		Components: Components{
			Schemas: maps.Clone(r.schemas),
			SecuritySchemes: map[string]*SecurityScheme{
				SchemeBearer: {Type: "http", Scheme: "bearer", BearerFormat: "JWT"},
			},
		},
	}
	if r.cfg.TokenURL != "" {
		doc.Components.SecuritySchemes[SchemeOAuthLogin] = &SecurityScheme{
			Type:  "oauth2",
			Flows: &OAuthFlows{Password: &OAuthFlow{TokenURL: r.cfg.TokenURL, Scopes: map[string]string{}}},
		}
		doc.Security = append(doc.Security, SecurityRequirement{SchemeOAuthLogin: []string{}})
	}
	doc.Security = append(doc.Security, SecurityRequirement{SchemeBearer: []string{}})
	for _, name := range slices.Sorted(maps.Keys(r.tags)) {
		doc.Tags = append(doc.Tags, Tag{Name: name, Description: r.cfg.TagDescriptions[name]})
	}
	return doc
}
