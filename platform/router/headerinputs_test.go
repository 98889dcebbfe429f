package router_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/asapjs/fiber-template/platform/idempotency"
	"github.com/asapjs/fiber-template/platform/openapi"
	"github.com/asapjs/fiber-template/platform/router"
)

// keyed is the input of a create that echoes the Idempotency-Key it was
// given.
type keyed struct {
	router.IdempotencyKeyHeader
	Body struct {
		Name string `json:"name"`
	}
}

// TestTheHandlerReadsTheIdempotencyKeyTheBinderRead: the key a handler
// finds in its input is the header's value, unquoted, and none without
// the header.
func TestTheHandlerReadsTheIdempotencyKeyTheBinderRead(t *testing.T) {
	t.Parallel()
	r := newRouter(t, router.Config{Idempotency: &keyStore{recs: map[string]idempotency.Record{}}, Controllers: []router.Controller{router.Group{Path: "/things", Declared: []router.Route{
		router.Post("/", func(c *router.Ctx, in *keyed) (*router.NoContent, error) {
			c.Fiber().Set("X-Key", "<"+in.IdempotencyKey+">")
			return nil, nil
		}),
	}}}})
	for _, tc := range []struct{ sent, want string }{
		{"", "<>"},
		{"a-key", "<a-key>"},
		{`"a \"quoted\" key"`, `<a "quoted" key>`},
		// The edges of printable ASCII: a space inside, and ~.
		{"a key~with ~ and spaces", "<a key~with ~ and spaces>"},
		{`"\"starts escaped"`, `<"starts escaped>`},
		{`"a \\ backslash"`, `<a \ backslash>`},
	} {
		req := httptest.NewRequest(http.MethodPost, "/things", strings.NewReader(`{"name":"a"}`))
		req.Header.Set("Content-Type", "application/json")
		if tc.sent != "" {
			req.Header.Set(router.HeaderIdempotencyKey, tc.sent)
		}
		resp, body := do(t, r, req)
		if got := resp.Header.Get("X-Key"); resp.StatusCode != http.StatusNoContent || got != tc.want {
			t.Errorf("Idempotency-Key %s: %d %s, the handler read %s, want %s", tc.sent, resp.StatusCode, body, got, tc.want)
		}
	}
}

// TestHeaderInputsAreDeclaredOnce: an input that embeds two If-Match
// inputs, or a pointer to one, and a route an option makes conditional
// without the input that declares it, fail at start-up.
func TestHeaderInputsAreDeclaredOnce(t *testing.T) {
	t.Parallel()
	type twoIfMatches struct {
		router.IfMatchHeader
		router.RequiredIfMatchHeader
		ID int64 `path:"id"`
	}
	type pointerIfMatch struct {
		*router.IfMatchHeader
		ID int64 `path:"id"`
	}
	for _, tc := range []struct {
		name  string
		route router.Route
		want  string
	}{
		{"two If-Match inputs", router.Delete("/:id", func(*router.Ctx, *twoIfMatches) (*router.NoContent, error) { return nil, nil }), "twice"},
		{"a pointer to an If-Match input", router.Delete("/:id", func(*router.Ctx, *pointerIfMatch) (*router.NoContent, error) { return nil, nil }), "not a pointer"},
		{"If-Match declared by an option, not the input", router.Delete("/:id", func(*router.Ctx, *struct {
			ID int64 `path:"id"`
		}) (*router.NoContent, error) {
			return nil, nil
		}, func(op *router.Operation) { op.IfMatch = openapi.IfMatchOptional }), "embeds neither"},
	} {
		_, err := router.New(router.Config{Controllers: []router.Controller{router.Group{Path: "/t", Declared: []router.Route{tc.route}}}})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: router.New: %v, want an error saying %q", tc.name, err, tc.want)
		}
	}
}

// TestAnInputThatIsNotAStructFailsAtStartUp: a handler whose input is a
// pointer or a scalar could not be bound; it fails at start-up.
func TestAnInputThatIsNotAStructFailsAtStartUp(t *testing.T) {
	t.Parallel()
	type thing struct {
		ID int64 `path:"id"`
	}
	for name, route := range map[string]router.Route{
		"a pointer": router.Get("/:id", func(*router.Ctx, **thing) (*router.NoContent, error) { return nil, nil }),
		"a string":  router.Get("/", func(*router.Ctx, *string) (*router.NoContent, error) { return nil, nil }),
	} {
		_, err := router.New(router.Config{Controllers: []router.Controller{router.Group{Path: "/t", Declared: []router.Route{route}}}})
		if err == nil || !strings.Contains(err.Error(), "not a struct") {
			t.Errorf("an input of %s: router.New: %v, want an error saying it is not a struct", name, err)
		}
	}
}
