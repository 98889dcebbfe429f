package router_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/asapjs/fiber-template/platform/paging"
	"github.com/asapjs/fiber-template/platform/router"
	"github.com/asapjs/fiber-template/platform/servicetest"
)

var (
	deprecatedSince  = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	deprecatedSunset = time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
)

const deprecationLink = "https://example.com/changes#legacy"

type legacyInput struct {
	paging.Query
	N int `query:"n" validate:"lte=3"`
}

// deprecatedRouter serves a deprecated list that requires a token, and a
// route that is not deprecated.
func deprecatedRouter(t *testing.T) *router.Router {
	return newRouter(t, router.Config{
		JWTSecret: testSecret,
		Controllers: []router.Controller{router.Group{Path: "/v1", Declared: []router.Route{
			router.Get("/legacy", func(c *router.Ctx, _ *legacyInput) (*paging.Page[whoami], error) {
				page := paging.New(make([]whoami, c.Paging().Limit), 30, c.Paging())
				return &page, nil
			}, router.Auth(), router.Deprecated(deprecatedSince, deprecatedSunset, deprecationLink)),
			router.Get("/current", echoPaging),
		}}},
	})
}

// TestDeprecatedRoutesSayItOnEveryAnswer checks the RFC 9745 Deprecation,
// RFC 8594 Sunset and rel="deprecation" link on a deprecated route's
// success and on each of its errors, beside its paging links, and their
// absence elsewhere.
func TestDeprecatedRoutesSayItOnEveryAnswer(t *testing.T) {
	t.Parallel()
	r := deprecatedRouter(t)
	cases := []struct {
		name, target, auth string
		status             int
		deprecated         bool
	}{
		{"a page", "/v1/legacy?limit=10", roleToken(t, "member"), http.StatusOK, true},
		{"no token", "/v1/legacy", "", http.StatusUnauthorized, true},
		{"a broken rule", "/v1/legacy?n=9", roleToken(t, "member"), http.StatusUnprocessableEntity, true},
		{"bad paging", "/v1/legacy?limit=x", roleToken(t, "member"), http.StatusBadRequest, true},
		{"another route", "/v1/current", "", http.StatusOK, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodGet, tc.target, nil)
			if tc.auth != "" {
				req.Header.Set("Authorization", tc.auth)
			}
			resp, body := do(t, r, req)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.status, body)
			}
			h := resp.Header
			links := servicetest.Links(h.Get("Link"))
			if !tc.deprecated {
				if h.Get("Deprecation") != "" || h.Get("Sunset") != "" || links["deprecation"] != "" {
					t.Fatalf("a route that is not deprecated answered Deprecation %q, Sunset %q, Link %q", h.Get("Deprecation"), h.Get("Sunset"), h.Get("Link"))
				}
				return
			}
			if got := h.Get("Deprecation"); got != "@1767225600" {
				t.Errorf("Deprecation %q, want @1767225600", got)
			}
			if got := h.Get("Sunset"); got != "Wed, 01 Jul 2026 00:00:00 GMT" {
				t.Errorf("Sunset %q, want Wed, 01 Jul 2026 00:00:00 GMT", got)
			}
			if links["deprecation"] != deprecationLink {
				t.Errorf("Link %q has no rel=\"deprecation\" to %s", h.Get("Link"), deprecationLink)
			}
			if tc.status == http.StatusOK && (links["next"] == "" || links["first"] == "") {
				t.Errorf("Link %q lost the paging links", h.Get("Link"))
			}
		})
	}
}

// TestDeprecationIsDocumented checks the operation is deprecated in the
// document and its responses name the headers.
func TestDeprecationIsDocumented(t *testing.T) {
	t.Parallel()
	_, body := get(t, deprecatedRouter(t), "/docs/spec.json")
	doc := loadSpec(t, body)
	op := doc.Paths.Find("/v1/legacy").Get
	if !op.Deprecated {
		t.Fatal("the operation is not deprecated in the document")
	}
	for status, ref := range op.Responses.Map() {
		for _, name := range []string{"Deprecation", "Sunset", "Link"} {
			if ref.Value.Headers[name] == nil {
				t.Errorf("response %s does not document %s", status, name)
			}
		}
	}
	if d := op.Responses.Status(http.StatusOK).Value.Headers["Link"].Value.Description; !strings.Contains(d, "next") || !strings.Contains(d, deprecationLink) {
		t.Errorf("the page's Link description %q names either the paging links or the deprecation, not both", d)
	}
	if doc.Paths.Find("/v1/current").Get.Deprecated {
		t.Error("a route that is not deprecated is in the document")
	}
}

func TestBadDeprecationsFailAtStartUp(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name          string
		since, sunset time.Time
		link, want    string
	}{
		{"no date", time.Time{}, time.Time{}, "", "without a date"},
		{"a sunset before it", deprecatedSunset, deprecatedSince, "", "is not after"},
		{"a link that is no URL", deprecatedSince, time.Time{}, "changes", "neither an absolute URL nor a path"},
		{"a link of another scheme", deprecatedSince, time.Time{}, "ftp://example.com/x", "not http(s)"},
		{"a link that breaks the header", deprecatedSince, time.Time{}, "/x>; rel=\"next\"", "cannot carry"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := router.New(router.Config{Controllers: []router.Controller{router.Group{Declared: []router.Route{
				router.Get("/x", echoPaging, router.Deprecated(tc.since, tc.sunset, tc.link)),
			}}}})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("router.New: %v, want an error saying %q", err, tc.want)
			}
		})
	}
}
