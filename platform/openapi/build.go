package openapi

import (
	"fmt"
	"maps"
	"slices"
	"strings"
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
	switch {
	case r.cfg.OpenIDConnectURL != "":
		doc.Components.SecuritySchemes[SchemeOAuthLogin] = &SecurityScheme{
			Type:             "openIdConnect",
			OpenIDConnectURL: r.cfg.OpenIDConnectURL,
			Description:      "Log in at the issuer this service trusts; the roles routes require are its scopes",
		}
		doc.Security = append(doc.Security, SecurityRequirement{SchemeOAuthLogin: []string{}})
	case r.cfg.TokenURL != "":
		doc.Components.SecuritySchemes[SchemeOAuthLogin] = &SecurityScheme{
			Type:        "oauth2",
			Description: r.cfg.LoginDescription,
			Flows:       &OAuthFlows{Password: &OAuthFlow{TokenURL: r.cfg.TokenURL, Scopes: r.scopes()}},
		}
		doc.Security = append(doc.Security, SecurityRequirement{SchemeOAuthLogin: []string{}})
	}
	doc.Security = append(doc.Security, SecurityRequirement{SchemeBearer: []string{}})
	if r.clients {
		doc.Components.SecuritySchemes[SchemeClient] = &SecurityScheme{Type: "http", Scheme: "basic",
			Description: "The id and secret of a client: another service, not a user"}
	}
	closeRequestObjects(doc)
	doc.Components.Headers = r.usedHeaders(doc)
	if len(r.errors) > 0 {
		doc.Components.Schemas[ProblemCodeSchema] = r.problemCodes()
	}
	for _, name := range slices.Sorted(maps.Keys(r.tags)) {
		doc.Tags = append(doc.Tags, Tag{Name: name, Description: r.cfg.TagDescriptions[name]})
	}
	return doc
}

// ProblemCodeSchema is the component name of the enum of the declared
// error codes of every route.
const ProblemCodeSchema = "ProblemCode"

// problemCodes is the ProblemCode enum, whose description lists each code
// with its status and title.
func (r *Registry) problemCodes() *Schema {
	codes := slices.Sorted(maps.Keys(r.errors))
	var desc strings.Builder
	desc.WriteString("Stable machine-readable codes of the declared errors:\n")
	enum := make([]any, len(codes))
	for i, code := range codes {
		enum[i] = code
		e := r.errors[code]
		fmt.Fprintf(&desc, "\n- `%s` (%d): %s", code, e.Status, e.Title)
	}
	return &Schema{Type: "string", Description: desc.String(), Enum: enum}
}

// scopes are the OAuthLogin scopes: one per role a route requires, granted
// to callers with that role.
func (r *Registry) scopes() map[string]string {
	out := map[string]string{}
	for role := range r.roles {
		out[role] = "Callers with the role " + role
	}
	return out
}
