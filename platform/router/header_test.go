package router_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/asapjs/fiber-template/platform/router"
)

// tenantInput reads a request header the way a query parameter is read.
type tenantInput struct {
	Tenant int `header:"x-tenant" validate:"required,gte=1"`
}

// TestHeadersAreBoundLikeOtherParameters: a header field is documented
// under its canonical name and bound by the binder, with the 400s and
// 422s of any parameter: unparsable, empty and repeated values are a 400
// naming the header, a broken rule or a missing required header a 422.
func TestHeadersAreBoundLikeOtherParameters(t *testing.T) {
	t.Parallel()
	r := newRouter(t, router.Config{Controllers: []router.Controller{router.Group{Path: "/t", Declared: []router.Route{
		router.Get("/", func(_ *router.Ctx, in *tenantInput) (*map[string]int, error) {
			return &map[string]int{"tenant": in.Tenant}, nil
		}),
	}}}})
	doc, err := r.Spec().Document()
	if err != nil {
		t.Fatal(err)
	}
	params := doc.Paths["/t"].Get.Parameters
	if len(params) != 1 || params[0].In != "header" || params[0].Name != "X-Tenant" || !params[0].Required {
		t.Fatalf("documented parameters %+v, want the required header X-Tenant", params)
	}
	send := func(values ...string) (*http.Response, []byte) {
		req := httptest.NewRequest(http.MethodGet, "/t", nil)
		for _, v := range values {
			req.Header.Add("X-Tenant", v)
		}
		return do(t, r, req)
	}
	resp, body := send("7")
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"tenant":7`) {
		t.Fatalf("X-Tenant: 7: %d %s, want it bound", resp.StatusCode, body)
	}
	for _, tc := range []struct {
		name    string
		values  []string
		status  int
		message string
	}{
		{"not an integer", []string{"seven"}, http.StatusBadRequest, "integer"},
		{"empty", []string{""}, http.StatusBadRequest, "must not be empty"},
		{"sent twice", []string{"1", "2"}, http.StatusBadRequest, "must be sent once"},
		{"below its minimum", []string{"0"}, http.StatusUnprocessableEntity, ""},
		{"missing", nil, http.StatusUnprocessableEntity, "is required"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := send(tc.values...)
			p := wantProblem(t, resp, body, tc.status)
			wantField(t, p, "X-Tenant")
			if tc.status == http.StatusBadRequest && p.Detail != "Invalid header." {
				t.Errorf("detail %q, want %q", p.Detail, "Invalid header.")
			}
			if !strings.Contains(p.Errors[0].Message, tc.message) {
				t.Errorf("message %q, want it to say %q", p.Errors[0].Message, tc.message)
			}
		})
	}
}

// TestHeaderDeclarationsFailAtStart: a header OpenAPI cannot describe as
// a parameter, one the router reads itself and a field in two locations
// fail at start-up.
func TestHeaderDeclarationsFailAtStart(t *testing.T) {
	t.Parallel()
	type authorization struct {
		Auth string `header:"Authorization"`
	}
	type key struct {
		router.IdempotencyKeyHeader
		Key  string `header:"idempotency-key"`
		Body struct {
			Name string `json:"name"`
		}
	}
	type twice struct {
		Q string `query:"q" header:"X-Q"`
	}
	ok := func(*router.Ctx, *authorization) (*router.NoContent, error) { return nil, nil }
	for _, tc := range []struct {
		name  string
		route router.Route
		want  string
	}{
		{"Authorization", router.Get("/", ok), "not a parameter"},
		{"the router's Idempotency-Key", router.Post("/", func(*router.Ctx, *key) (*router.NoContent, error) { return nil, nil }), "declared twice"},
		{"a query and a header", router.Get("/", func(*router.Ctx, *twice) (*router.NoContent, error) { return nil, nil }), "more than one"},
	} {
		_, err := router.New(router.Config{Idempotency: &keyStore{}, Controllers: []router.Controller{router.Group{Path: "/t", Declared: []router.Route{tc.route}}}})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error saying %q", tc.name, err, tc.want)
		}
	}
}
