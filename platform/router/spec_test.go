package router_test

import (
	"context"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/asapjs/fiber-template/platform/paging"
	"github.com/asapjs/fiber-template/platform/router"
)

type listThings struct {
	paging.Query
	Role string `query:"role" validate:"omitempty,oneof=admin member"`
}

func specRouter(t *testing.T, docs router.APIDocs) *router.Router {
	return newRouter(t, router.Config{
		BasePath:  "/api",
		MaxLimit:  40,
		JWTSecret: testSecret,
		APIDocs:   docs,
		Controllers: []router.Controller{router.Group{Path: "/things", Name: "Things", Declared: []router.Route{
			router.Get("/", func(c *router.Ctx, in *listThings) (*paging.Page[thing], error) {
				p := paging.New([]thing{{ID: 1}}, 1, c.Paging())
				return &p, nil
			}, router.Summary("List things"), router.Auth()),
			router.Get("/:id", func(c *router.Ctx, in *struct {
				ID int64 `path:"id"`
			}) (*thing, error) {
				return &thing{ID: in.ID}, nil
			}, router.Summary("Get a thing"), router.Errors(errThingNotFound)),
			router.Post("/", func(c *router.Ctx, in *struct{ Body thing }) (*thing, error) { return &in.Body, nil },
				router.Summary("Create a thing"), router.Status(http.StatusCreated)),
			router.Delete("/:id", func(c *router.Ctx, in *struct {
				ID int64 `path:"id"`
			}) (*router.NoContent, error) {
				return nil, nil
			}, router.Summary("Delete a thing"), router.Auth()),
		}}},
	})
}

func loadSpec(t *testing.T, b []byte) *openapi3.T {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromData(b)
	if err != nil {
		t.Fatalf("load spec: %v", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("spec does not validate: %v", err)
	}
	return doc
}

func TestTheSpecDocumentsTheDeclaredRoutes(t *testing.T) {
	t.Parallel()
	r := specRouter(t, router.APIDocs{Name: "Things API", Version: "2.1.0"})
	resp, body := get(t, r, "/api/docs/spec.json")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	doc := loadSpec(t, body)
	if doc.Info.Title != "Things API" || doc.Info.Version != "2.1.0" || doc.Servers[0].URL != "/" {
		t.Fatalf("info %+v servers %+v", doc.Info, doc.Servers)
	}
	if flow := doc.Components.SecuritySchemes["OAuthLogin"].Value.Flows.Password; flow.TokenURL != "/api/auth/login" {
		t.Fatalf("tokenUrl = %q, want the login route under the base path", flow.TokenURL)
	}
	list := doc.Paths.Find("/api/things").Get
	if list == nil || list.Summary != "List things" || list.Tags[0] != "Things" {
		t.Fatalf("list operation %+v", list)
	}
	limit := list.Parameters.GetByInAndName("query", "limit")
	if limit == nil || limit.Schema.Value.Max == nil || *limit.Schema.Value.Max != 40 {
		t.Fatalf("limit parameter does not carry the configured maximum: %+v", limit)
	}
	if list.Parameters.GetByInAndName("query", "role") == nil || list.Parameters.GetByInAndName("query", "page") == nil {
		t.Fatal("filters are not listed next to page and limit")
	}
	if list.Responses.Status(401) == nil || list.Security != nil {
		t.Fatal("an auth route must document 401 and inherit the global security")
	}
	ok := list.Responses.Status(200).Value.Content["application/json"].Schema
	if ok.Ref != "#/components/schemas/thingPage" && ok.Ref != "#/components/schemas/ThingPage" {
		t.Fatalf("list response schema = %q", ok.Ref)
	}
	page := doc.Components.Schemas["thingPage"]
	if page == nil {
		page = doc.Components.Schemas["ThingPage"]
	}
	if page == nil || page.Value.Properties["has_next"] == nil || page.Value.Properties["has_Next"] != nil {
		t.Fatal("the paging schema must name has_next as the JSON does")
	}
	byID := doc.Paths.Find("/api/things/{id}")
	id := byID.Get.Parameters.GetByInAndName("path", "id")
	if id == nil || !id.Required || !id.Schema.Value.Type.Is("integer") {
		t.Fatalf("id parameter %+v", id)
	}
	if byID.Get.Responses.Status(404) == nil || byID.Get.Security == nil || len(*byID.Get.Security) != 0 {
		t.Fatal("a public route must list its declared 404 and carry security: []")
	}
	if byID.Delete.Responses.Status(204) == nil || byID.Delete.Responses.Status(204).Value.Content != nil {
		t.Fatal("a no-content route must document 204 without content")
	}
	if doc.Paths.Find("/api/things").Post.Responses.Status(201) == nil {
		t.Fatal("a create route must document 201")
	}
	if doc.Paths.Find("/health-check") == nil || doc.Paths.Find("/api") == nil {
		t.Fatal("built-in endpoints are not documented")
	}
	if health := doc.Paths.Find("/health-check").Get; health.Responses.Status(400) != nil || len(health.Parameters) != 0 {
		t.Fatal("the built-ins ignore page and limit, so they document neither them nor a 400")
	}
	if del := byID.Delete; del.Parameters.GetByInAndName("query", "page") != nil {
		t.Fatal("a route whose input has no paging fields ignores page and limit, so it does not document them")
	}
	if byID.Get.Responses.Status(422) != nil || doc.Paths.Find("/api/things").Post.Responses.Status(415) == nil {
		t.Fatal("422 belongs to inputs with rules only, 415 to routes with a body")
	}
}

func TestTheSpecIsCachedAndCannotBeForged(t *testing.T) {
	t.Parallel()
	t.Run("a forged Host leaves the document unchanged", func(t *testing.T) {
		r := specRouter(t, router.APIDocs{})
		req := httptest.NewRequest(http.MethodGet, "/api/docs/spec.json", nil)
		req.Host = "evil.example"
		req.Header.Set("X-Forwarded-Host", "evil.example")
		_, forged := do(t, r, req)
		_, clean := get(t, r, "/api/docs/spec.json")
		if string(forged) != string(clean) || loadSpec(t, clean).Servers[0].URL != "/" {
			t.Fatal("a forged host changed the document")
		}
	})
	t.Run("a configured host is used as the server", func(t *testing.T) {
		r := specRouter(t, router.APIDocs{Scheme: "https", Host: "api.example.com"})
		_, body := get(t, r, "/api/docs/spec.json")
		if got := loadSpec(t, body).Servers[0].URL; got != "https://api.example.com" {
			t.Fatalf("server = %q", got)
		}
	})
	r := specRouter(t, router.APIDocs{})
	etags := map[string]string{}
	for _, target := range []string{"/api/docs/spec.json", "/api/docs/spec-3.1.json"} {
		t.Run("a matching If-None-Match is a 304 on "+target, func(t *testing.T) {
			resp, body := get(t, r, target)
			etag := resp.Header.Get("ETag")
			if etag == "" || resp.Header.Get("Cache-Control") == "" {
				t.Fatalf("ETag %q Cache-Control %q", etag, resp.Header.Get("Cache-Control"))
			}
			etags[target] = etag + " " + string(body[:min(len(body), 20)])
			req := httptest.NewRequest(http.MethodGet, target, nil)
			req.Header.Set("If-None-Match", etag)
			resp, body = do(t, r, req)
			if resp.StatusCode != http.StatusNotModified || len(body) != 0 {
				t.Fatalf("status %d with %d bytes, want 304 and none", resp.StatusCode, len(body))
			}
			for _, other := range []string{`"other"`, `junk, *`, etag + ` junk`} {
				req.Header.Set("If-None-Match", other)
				if resp, _ := do(t, r, req); resp.StatusCode != http.StatusOK {
					t.Fatalf("If-None-Match %s got %d, want 200", other, resp.StatusCode)
				}
			}
		})
	}
	if etags["/api/docs/spec.json"] == etags["/api/docs/spec-3.1.json"] {
		t.Error("the 3.0 and 3.1 documents share an ETag and a beginning")
	}
}

func TestDocsAuthGuardsTheDocsButNotTheAPI(t *testing.T) {
	t.Parallel()
	r := specRouter(t, router.APIDocs{UseAuth: true, Users: map[string]string{"dev": "s3cret"}})
	for _, target := range []string{"/api/docs/spec.json", "/api/docs/spec-3.1.json", "/api/docs/spec-ui.html"} {
		t.Run(target+" asks for Basic credentials", func(t *testing.T) {
			resp, body := get(t, r, target)
			wantProblem(t, resp, body, http.StatusUnauthorized)
			if h := resp.Header.Get("WWW-Authenticate"); h != `Basic realm="Developer"` {
				t.Fatalf("WWW-Authenticate = %q", h)
			}
			req := httptest.NewRequest(http.MethodGet, target, nil)
			req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte("dev:s3cret")))
			if resp, _ := do(t, r, req); resp.StatusCode != http.StatusOK {
				t.Fatalf("with credentials: status %d", resp.StatusCode)
			}
		})
	}
	t.Run("API routes stay open to the public", func(t *testing.T) {
		if resp, body := get(t, r, "/api/things/3"); resp.StatusCode != http.StatusOK {
			t.Fatalf("status %d: %s", resp.StatusCode, body)
		}
	})
}
