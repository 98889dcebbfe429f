package router_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/asapjs/fiber-template/platform/router"
)

type created struct {
	ID   int64  `json:"id"`
	Slug string `json:"slug"`
	Tags []string
}

func createdRoute(opts ...router.Option) router.Route {
	return router.Post("/", func(c *router.Ctx, in *struct {
		Body struct {
			Slug string `json:"slug"`
		}
	}) (*created, error) {
		return &created{ID: 42, Slug: in.Body.Slug}, nil
	}, opts...)
}

func TestLocationNamesTheCreatedResource(t *testing.T) {
	t.Parallel()
	r := newRouter(t, router.Config{BasePath: "/api", Controllers: []router.Controller{router.Group{Path: "/things", Declared: []router.Route{
		createdRoute(router.Status(http.StatusCreated), router.Location("/:id/by-slug/:slug")),
	}}}})
	resp, body := send(t, r, http.MethodPost, "/api/things", "application/json", `{"slug":"a b/c"}`)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	if got, want := resp.Header.Get("Location"), "/api/things/42/by-slug/a%20b%2Fc"; got != want {
		t.Errorf("Location %q, want %q", got, want)
	}
	_, raw := get(t, r, "/api/docs/spec.json")
	op := loadSpec(t, raw).Paths.Find("/api/things").Post
	h := op.Responses.Status(http.StatusCreated).Value.Headers["Location"]
	if h == nil || !strings.Contains(h.Value.Description, "/api/things/{id}/by-slug/{slug}") {
		t.Errorf("the 201 documents Location as %+v", h)
	}
}

func TestLocationDeclarationsFailAtStart(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		route router.Route
		want  string
	}{
		{"a 200", createdRoute(router.Location("/:id")), "not 201"},
		{"no such member", createdRoute(router.Status(http.StatusCreated), router.Location("/:name")), "no member name"},
		{"a list member", createdRoute(router.Status(http.StatusCreated), router.Location("/:Tags")), "not a string or an integer"},
		{"not a path", createdRoute(router.Status(http.StatusCreated), router.Location(":id")), "must start with"},
		{"not a name", createdRoute(router.Status(http.StatusCreated), router.Location("/:")), "has no parameter name"},
		{"the document's syntax", createdRoute(router.Status(http.StatusCreated), router.Location("/{id}")), "as route paths do"},
	} {
		_, err := router.New(router.Config{Controllers: []router.Controller{router.Group{Path: "/things", Declared: []router.Route{tc.route}}}})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error saying %q", tc.name, err, tc.want)
		}
	}
}

type record struct {
	ID int64 `json:"id"`
}

type embedding struct {
	*record
	Name string `json:"name"`
}

// TestLocationReadsEmbeddedMembers: a member of an embedded struct is
// found as the document names it; an answer whose embedded struct is nil
// gets no Location rather than a panic.
func TestLocationReadsEmbeddedMembers(t *testing.T) {
	t.Parallel()
	r := newRouter(t, router.Config{BasePath: "/api", Controllers: []router.Controller{router.Group{Path: "/things", Declared: []router.Route{
		router.Post("/", func(c *router.Ctx, in *struct {
			Body struct {
				Name string `json:"name"`
			}
		}) (*embedding, error) {
			if in.Body.Name == "orphan" {
				return &embedding{Name: in.Body.Name}, nil
			}
			return &embedding{record: &record{ID: 7}, Name: in.Body.Name}, nil
		}, router.Status(http.StatusCreated), router.Location("/:id")),
	}}}})
	resp, body := send(t, r, http.MethodPost, "/api/things", "application/json", `{"name":"a"}`)
	if resp.StatusCode != http.StatusCreated || resp.Header.Get("Location") != "/api/things/7" {
		t.Errorf("status %d, Location %q, want 201 at /api/things/7: %s", resp.StatusCode, resp.Header.Get("Location"), body)
	}
	resp, body = send(t, r, http.MethodPost, "/api/things", "application/json", `{"name":"orphan"}`)
	if resp.StatusCode != http.StatusCreated || resp.Header.Get("Location") != "" {
		t.Errorf("status %d, Location %q, want 201 without one: %s", resp.StatusCode, resp.Header.Get("Location"), body)
	}
}
