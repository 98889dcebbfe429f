package router_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/asapjs/fiber-template/platform/router"
)

// Two inputs that differ in one validate tag and nothing else.
type (
	nameAtMost5 struct {
		Name string `query:"name" validate:"max=5"`
		Body struct {
			Title string `json:"title" validate:"required,max=5"`
		}
	}
	nameAtMost3 struct {
		Name string `query:"name" validate:"max=3"`
		Body struct {
			Title string `json:"title" validate:"required,max=3"`
		}
	}
)

// TestOneTagChangesDocumentBinderAndError changes nothing but the validate
// tags of a route's input: the document's bound, what the binder accepts
// and the problem it answers all follow, because they are one value.
func TestOneTagChangesDocumentBinderAndError(t *testing.T) {
	t.Parallel()
	routers := map[int]*router.Router{
		5: newRouter(t, router.Config{Controllers: []router.Controller{router.Group{Path: "/one", Declared: []router.Route{
			router.Post("/", func(*router.Ctx, *nameAtMost5) (*router.NoContent, error) { return nil, nil }),
		}}}}),
		3: newRouter(t, router.Config{Controllers: []router.Controller{router.Group{Path: "/one", Declared: []router.Route{
			router.Post("/", func(*router.Ctx, *nameAtMost3) (*router.NoContent, error) { return nil, nil }),
		}}}}),
	}
	for bound, r := range routers {
		query, body := documentedMaxLengths(t, r.SpecJSON())
		if query != bound || body != bound {
			t.Errorf("max=%d: the document bounds the query at %d and the body member at %d", bound, query, body)
		}
		// Four characters: within 5, over 3.
		resp, answer := send(t, r, http.MethodPost, "/one?name=abcd", "application/json", `{"title":"abcd"}`)
		switch bound {
		case 5:
			if resp.StatusCode != http.StatusNoContent {
				t.Errorf("max=5: 4 characters answered %d: %s", resp.StatusCode, answer)
			}
		case 3:
			p := wantProblem(t, resp, answer, http.StatusUnprocessableEntity)
			wantField(t, p, "name")
			wantField(t, p, "title")
			for _, e := range p.Errors {
				if !strings.Contains(e.Message, "3") {
					t.Errorf("max=3: %s is told %q, which does not name the bound", e.Field, e.Message)
				}
			}
		}
	}
}

// documentedMaxLengths reads the maxLength of the name query parameter and
// of the body's title member of POST /one from a document.
func documentedMaxLengths(t *testing.T, spec []byte) (query, body int) {
	t.Helper()
	var doc struct {
		Paths map[string]map[string]struct {
			Parameters []struct {
				Name   string
				Schema struct{ MaxLength int }
			}
			RequestBody struct {
				Content map[string]struct {
					Schema struct {
						Ref        string `json:"$ref"`
						Properties map[string]struct{ MaxLength int }
					}
				}
			}
		}
		Components struct {
			Schemas map[string]struct {
				Properties map[string]struct{ MaxLength int }
			}
		}
	}
	if err := json.Unmarshal(spec, &doc); err != nil {
		t.Fatal(err)
	}
	op := doc.Paths["/one"]["post"]
	for _, p := range op.Parameters {
		if p.Name == "name" {
			query = p.Schema.MaxLength
		}
	}
	s := op.RequestBody.Content["application/json"].Schema
	if s.Ref == "" {
		return query, s.Properties["title"].MaxLength
	}
	component := doc.Components.Schemas[strings.TrimPrefix(s.Ref, "#/components/schemas/")]
	return query, component.Properties["title"].MaxLength
}
