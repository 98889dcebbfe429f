package router_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/asapjs/fiber-template/platform/basicauth"
	"github.com/asapjs/fiber-template/platform/router"
)

// lookupInput is the form a client route reads, with a rule a caller
// without credentials must never get to see.
type lookupInput struct {
	Body struct {
		Token string `form:"token" validate:"required,max=8"`
	}
}

func clientRouter(t *testing.T) *router.Router {
	return newRouter(t, router.Config{
		JWTSecret: testSecret,
		Controllers: []router.Controller{router.Group{Path: "/lookup", Declared: []router.Route{
			router.Post("/", func(_ *router.Ctx, in *lookupInput) (*whoami, error) {
				return &whoami{Subject: in.Body.Token}, nil
			}, router.ClientAuth(basicauth.New(map[string]string{"billing": "a-secret:with-colons"})),
				router.BodyContentType(router.MediaForm), router.OperationID("lookup")),
		}}},
	})
}

func basic(id, secret string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(id+":"+secret))
}

func TestClientAuthLetsOnlyClientsIn(t *testing.T) {
	t.Parallel()
	r := clientRouter(t)
	cases := []struct {
		name   string
		auth   []string
		body   string
		status int
	}{
		{"a client passes", []string{basic("billing", "a-secret:with-colons")}, "token=abc", http.StatusOK},
		{"a client still meets the input rules", []string{basic("billing", "a-secret:with-colons")}, "token=123456789", http.StatusUnprocessableEntity},
		{"the scheme name is case-insensitive", []string{"bAsIc " + base64.StdEncoding.EncodeToString([]byte("billing:a-secret:with-colons"))}, "token=abc", http.StatusOK},
		{"no credentials are unauthorized, whatever the input", nil, "token=123456789", http.StatusUnauthorized},
		{"a wrong secret is unauthorized", []string{basic("billing", "a-secret")}, "token=abc", http.StatusUnauthorized},
		{"another client id is unauthorized", []string{basic("shipping", "a-secret:with-colons")}, "token=abc", http.StatusUnauthorized},
		{"a user's bearer token is unauthorized", []string{roleToken(t, "admin")}, "token=abc", http.StatusUnauthorized},
		{"two Authorization fields are unauthorized", []string{basic("billing", "a-secret:with-colons"), basic("billing", "a-secret:with-colons")}, "token=abc", http.StatusUnauthorized},
		{"credentials that are not base64 are unauthorized", []string{"Basic !!!"}, "token=abc", http.StatusUnauthorized},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodPost, "/lookup", strings.NewReader(tc.body))
			req.Header.Set("Content-Type", router.MediaForm)
			for _, a := range tc.auth {
				req.Header.Add("Authorization", a)
			}
			resp, body := do(t, r, req)
			if tc.status == http.StatusOK {
				if resp.StatusCode != http.StatusOK || decode[whoami](t, body).Subject != "abc" {
					t.Fatalf("status %d: %s", resp.StatusCode, body)
				}
			} else {
				wantProblem(t, resp, body, tc.status)
			}
			challenge := resp.Header.Get("WWW-Authenticate")
			if (tc.status == http.StatusUnauthorized) != (challenge == `Basic realm="api"`) {
				t.Errorf("WWW-Authenticate %q on a %d", challenge, resp.StatusCode)
			}
			if got := resp.Header.Get("Cache-Control"); (got == "no-store") != (tc.status != http.StatusUnauthorized) {
				t.Errorf("Cache-Control %q on a %d: a client's answer is no-store", got, resp.StatusCode)
			}
		})
	}
}

func TestClientAuthIsDocumented(t *testing.T) {
	t.Parallel()
	var doc struct {
		Components struct {
			SecuritySchemes map[string]struct{ Type, Scheme string }
		}
		Paths map[string]map[string]struct {
			Security  []map[string][]string
			Responses map[string]struct {
				Headers map[string]struct{ Description string }
			}
		}
	}
	if err := json.Unmarshal(clientRouter(t).SpecJSON(), &doc); err != nil {
		t.Fatal(err)
	}
	if s := doc.Components.SecuritySchemes["clientAuth"]; s.Type != "http" || s.Scheme != "basic" {
		t.Errorf("clientAuth scheme %+v, want http basic", s)
	}
	op := doc.Paths["/lookup"]["post"]
	if len(op.Security) != 1 || op.Security[0]["clientAuth"] == nil || len(op.Security[0]) != 1 {
		t.Errorf("security %v, want the clientAuth scheme alone", op.Security)
	}
	if h := op.Responses["401"].Headers["WWW-Authenticate"].Description; !strings.Contains(h, "Basic") {
		t.Errorf("the 401's WWW-Authenticate says %q, not the Basic scheme", h)
	}
	if _, ok := op.Responses["200"].Headers["Cache-Control"]; !ok {
		t.Error("the 200 does not declare its Cache-Control: no-store")
	}
	// A document without client routes has no clientAuth scheme.
	if strings.Contains(string(rolesRouter(t).SpecJSON()), "clientAuth") {
		t.Error("a document without client routes names clientAuth")
	}
}

func TestClientAuthAndBearerTokensDoNotMix(t *testing.T) {
	t.Parallel()
	_, err := router.New(router.Config{
		JWTSecret: testSecret,
		Controllers: []router.Controller{router.Group{Path: "/lookup", Declared: []router.Route{
			router.Post("/", func(_ *router.Ctx, in *lookupInput) (*whoami, error) { return &whoami{}, nil },
				router.ClientAuth(basicauth.New(nil)), router.Auth(), router.BodyContentType(router.MediaForm)),
		}}},
	})
	if err == nil || !strings.Contains(err.Error(), "ClientAuth") {
		t.Fatalf("router.New = %v, want a refusal of ClientAuth with Auth", err)
	}
}

// TestRefusedBodiesOfACheckedCallerAreNotKept: once the credentials are
// checked, a 415 or a 413 of the route's own limit is an answer for that
// caller, no-store as the document says.
func TestRefusedBodiesOfACheckedCallerAreNotKept(t *testing.T) {
	t.Parallel()
	r := clientRouter(t)
	var doc struct {
		Paths map[string]map[string]struct {
			Responses map[string]struct {
				Headers map[string]struct {
					Ref string `json:"$ref"`
				}
			}
		}
	}
	if err := json.Unmarshal(r.SpecJSON(), &doc); err != nil {
		t.Fatal(err)
	}
	responses := doc.Paths["/lookup"]["post"].Responses
	for _, tc := range []struct {
		name, contentType, body string
		status                  int
		ref                     string
	}{
		{"another media type", "application/json", `{"token":"abc"}`, http.StatusUnsupportedMediaType, "#/components/headers/CacheControlNoStore"},
		{"a body over the route's limit", router.MediaForm, "token=" + strings.Repeat("a", 200_000), http.StatusRequestEntityTooLarge, "#/components/headers/CacheControlNoStoreOnceChecked"},
	} {
		req := httptest.NewRequest(http.MethodPost, "/lookup", strings.NewReader(tc.body))
		req.Header.Set("Content-Type", tc.contentType)
		req.Header.Set("Authorization", basic("billing", "a-secret:with-colons"))
		resp, body := do(t, r, req)
		wantProblem(t, resp, body, tc.status)
		if got := resp.Header.Get("Cache-Control"); got != "no-store" {
			t.Errorf("%s: Cache-Control %q, want no-store", tc.name, got)
		}
		if got := responses[strconv.Itoa(tc.status)].Headers["Cache-Control"].Ref; got != tc.ref {
			t.Errorf("%s: the document's %d declares Cache-Control %q, want %s", tc.name, tc.status, got, tc.ref)
		}
	}
}
