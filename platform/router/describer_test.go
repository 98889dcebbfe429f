package router_test

import (
	"testing"

	"github.com/asapjs/fiber-template/platform/router"
)

// TestControllersDescribeTheirTags: a controller's Description is its
// tag's text in the document, one without a description leaves its tag
// bare, and two descriptions of one tag fail at start-up.
func TestControllersDescribeTheirTags(t *testing.T) {
	t.Parallel()
	ok := func(*router.Ctx, *struct{}) (*router.NoContent, error) { return nil, nil }
	r := newRouter(t, router.Config{Controllers: []router.Controller{
		router.Group{Path: "/books", Name: "Books", About: "Every book on the shelf.", Declared: []router.Route{router.Get("/", ok)}},
		router.Group{Path: "/notes", Name: "Notes", Declared: []router.Route{router.Get("/", ok)}},
	}})
	_, raw := get(t, r, "/docs/spec.json")
	doc := loadSpec(t, raw)
	about := map[string]string{}
	for _, tag := range doc.Tags {
		about[tag.Name] = tag.Description
	}
	if about["Books"] != "Every book on the shelf." || about["Notes"] != "" {
		t.Errorf("the document's tags say %q; want Books described and Notes bare", about)
	}
	_, err := router.New(router.Config{Controllers: []router.Controller{
		router.Group{Path: "/a", Name: "Books", About: "One text.", Declared: []router.Route{router.Get("/", ok)}},
		router.Group{Path: "/b", Name: "Books", About: "Another text.", Declared: []router.Route{router.Get("/", ok)}},
	}})
	if err == nil {
		t.Error("two descriptions of one tag: router.New succeeded, want an error")
	}
}
