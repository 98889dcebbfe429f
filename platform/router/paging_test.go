package router_test

import (
	"net/http"
	"testing"

	"github.com/asapjs/fiber-template/platform/paging"
	"github.com/asapjs/fiber-template/platform/router"
)

type pagingEcho struct {
	Page  int `json:"page"`
	Limit int `json:"limit"`
}

func echoPaging(c *router.Ctx, _ *struct{}) (*pagingEcho, error) {
	p := c.Paging()
	return &pagingEcho{Page: p.Page, Limit: p.Limit}, nil
}

type listInput struct {
	paging.Query
	Role string `query:"role"`
}

func echoListPaging(c *router.Ctx, in *listInput) (*pagingEcho, error) {
	return &pagingEcho{Page: in.Page, Limit: in.Limit}, nil
}

func TestPagingIsParsedOnPagedRoutes(t *testing.T) {
	t.Parallel()
	r := newRouter(t, router.Config{
		MaxLimit: 50,
		Controllers: []router.Controller{router.Group{Path: "/p", Declared: []router.Route{
			router.Get("/plain", echoPaging),
			router.Get("/list", echoListPaging),
			router.Post("/plain", echoPaging),
		}}},
	})
	ok := []struct {
		name, query string
		want        pagingEcho
	}{
		{"defaults apply when both are absent", "", pagingEcho{0, 20}},
		{"explicit values are used", "?page=3&limit=7", pagingEcho{3, 7}},
		{"the configured maximum is accepted", "?limit=50", pagingEcho{0, 50}},
	}
	for _, path := range []string{"/p/list"} {
		for _, tc := range ok {
			t.Run(path+" "+tc.name, func(t *testing.T) {
				resp, body := get(t, r, path+tc.query)
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("status %d: %s", resp.StatusCode, body)
				}
				if got := decode[pagingEcho](t, body); got != tc.want {
					t.Fatalf("paging = %+v, want %+v", got, tc.want)
				}
			})
		}
	}
	bad := []struct {
		name, query, field string
	}{
		{"a negative page", "?page=-1", "page"},
		{"a zero limit", "?limit=0", "limit"},
		{"a negative limit", "?limit=-5", "limit"},
		{"a limit above the maximum", "?limit=51", "limit"},
		{"letters", "?page=abc", "page"},
		{"a decimal", "?limit=1.5", "limit"},
		{"hexadecimal", "?page=0x10", "page"},
		{"an exponent", "?limit=1e2", "limit"},
		{"an overflowing page", "?page=99999999999999999999", "page"},
		{"a page beyond int32", "?page=2147483648", "page"},
		{"a lone sign", "?page=-", "page"},
		{"a space", "?limit=%201", "limit"},
		{"a plus that decodes to a space", "?page=+2", "page"},
		{"an encoded plus sign", "?page=%2B2", "page"},
		{"a leading zero", "?page=010", "page"},
		{"a limit with a leading zero", "?limit=05", "limit"},
		{"minus zero", "?page=-0", "page"},
		{"a page twice", "?page=1&page=2", "page"},
		{"a limit twice", "?limit=5&limit=6", "limit"},
		// The document does not allow empty values: page= is not "no page".
		{"an empty page", "?page=&limit=5", "page"},
		{"an empty limit", "?limit", "limit"},
	}
	for _, tc := range bad {
		t.Run("GET rejects "+tc.name, func(t *testing.T) {
			resp, body := get(t, r, "/p/list"+tc.query)
			wantField(t, wantProblem(t, resp, body, http.StatusBadRequest), tc.field)
		})
	}
	// What the document says of such a route: nothing of page and limit.
	t.Run("a route without paging fields ignores page and limit, and its handler gets the defaults", func(t *testing.T) {
		for _, query := range []string{"?page=3&limit=7", "?page=abc&limit=-1"} {
			resp, body := send(t, r, http.MethodPost, "/p/plain"+query, "", "")
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("%s: status %d: %s", query, resp.StatusCode, body)
			}
			if got := decode[pagingEcho](t, body); got != (pagingEcho{0, 20}) {
				t.Fatalf("%s: paging = %+v, want the defaults", query, got)
			}
		}
	})
}
