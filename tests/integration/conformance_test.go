package integration

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers/legacy"
)

// TestTheServiceConformsToItsDocument generates requests from the served
// document alone, valid ones and ones that break a documented rule, sends
// them to the example service and checks every answer against the document
// with kin-openapi: each response is one the operation documents, an
// invalid request is never answered 2xx, and nothing is answered 5xx.
func TestTheServiceConformsToItsDocument(t *testing.T) {
	t.Parallel()
	a := newUserAPI(t, "sqlite:"+filepath.Join(t.TempDir(), "app.db"))
	const email, password = "conformance@example.com", "conformance-pass-1"
	a.signUp(t, map[string]any{"email": email, "name": "Conformance", "password": password})
	token := a.login(t, email, password)

	doc, err := openapi3.NewLoader().LoadFromData(a.r.SpecJSON())
	if err != nil {
		t.Fatalf("load the served document: %v", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("the served document is invalid: %v", err)
	}
	// Requests are matched against paths relative to the server, "/".
	routes, err := legacy.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	sent := 0
	for _, path := range doc.Paths.InMatchingOrder() {
		item := doc.Paths.Value(path)
		for method, op := range item.Operations() {
			if strings.Contains(path, "/docs/") || strings.HasSuffix(path, "/sync") {
				continue // the docs UI and the developer tools are not JSON operations
			}
			for _, c := range requestsFor(path, method, op) {
				name := fmt.Sprintf("%s %s %s", method, path, c.name)
				t.Run(name, func(t *testing.T) {
					req := c.build(token)
					res := a.r.App()
					resp, err := res.Test(req, -1)
					if err != nil {
						t.Fatalf("send: %v", err)
					}
					defer resp.Body.Close()
					body, _ := io.ReadAll(resp.Body)
					if resp.StatusCode >= 500 {
						t.Fatalf("status %d: %s", resp.StatusCode, body)
					}
					if c.invalid && resp.StatusCode < 300 {
						t.Fatalf("an invalid request was answered %d: %s", resp.StatusCode, body)
					}
					route, params, err := routes.FindRoute(c.build(token))
					if err != nil {
						t.Fatalf("find route: %v", err)
					}
					in := &openapi3filter.RequestValidationInput{Request: c.build(token), PathParams: params, Route: route,
						Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}}
					out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: resp.StatusCode,
						Header: resp.Header, Body: io.NopCloser(bytes.NewReader(body)),
						Options: &openapi3filter.Options{IncludeResponseStatus: true}}
					if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
						t.Errorf("the %d answer does not conform to the document: %v\n%s", resp.StatusCode, err, body)
					}
					checkHeaders(t, op, resp)
				})
				sent++
			}
		}
	}
	if sent < 20 {
		t.Fatalf("only %d requests were generated: the document has too few operations", sent)
	}
}

// documentedHeaders are the answer headers of the service's own that the
// document declares on every response that carries them; alwaysSent are
// those among them that an answer declaring them always carries (the
// Cache-Control of a route behind auth, by its component; not the one of
// a route where a token is optional).
var (
	documentedHeaders = []string{"X-Request-Id", "Cache-Control", "ETag", "Link", "Location", "Retry-After",
		"WWW-Authenticate", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "Idempotent-Replayed",
		"Accept-Encoding", "Accept-Patch", "Deprecation", "Sunset"}
	alwaysSent = map[string]string{"X-Request-Id": "", "Cache-Control": "#/components/headers/CacheControlNoStore"}
)

// checkHeaders fails t when resp carries one of documentedHeaders that
// its response in the document does not declare, or lacks one the
// response declares that is always sent.
func checkHeaders(t *testing.T, op *openapi3.Operation, resp *http.Response) {
	t.Helper()
	ref := op.Responses.Status(resp.StatusCode)
	if ref == nil || ref.Value == nil {
		return // ValidateResponse has said so
	}
	declared := map[string]*openapi3.HeaderRef{}
	for name, h := range ref.Value.Headers {
		declared[http.CanonicalHeaderKey(name)] = h
	}
	for _, name := range documentedHeaders {
		h, ok := declared[name]
		_, sent := resp.Header[name]
		switch want, always := alwaysSent[name]; {
		case sent && !ok:
			t.Errorf("the %d answer carries %s: %q, which the document does not declare on it", resp.StatusCode, name, resp.Header.Get(name))
		case ok && !sent && always && (want == "" || h.Ref == want):
			t.Errorf("the %d answer lacks %s, which the document declares on it", resp.StatusCode, name)
		}
	}
}

// genRequest is one generated request.
type genRequest struct {
	name    string
	invalid bool
	build   func(token string) *http.Request
}

// requestsFor generates a valid request of op, and one invalid request per
// documented rule it can break: each parameter, each body member.
func requestsFor(path, method string, op *openapi3.Operation) []genRequest {
	params := map[string]*openapi3.Parameter{}
	var order []string
	for _, ref := range op.Parameters {
		p := ref.Value
		params[p.In+" "+p.Name] = p
		order = append(order, p.In+" "+p.Name)
	}
	var bodySchema *openapi3.Schema
	mediaType := ""
	if op.RequestBody != nil {
		for _, mt := range []string{"application/json", "application/x-www-form-urlencoded"} {
			if c := op.RequestBody.Value.Content.Get(mt); c != nil {
				bodySchema, mediaType = c.Schema.Value, mt
				break
			}
		}
	}
	auth := op.Security == nil || len(*op.Security) > 0
	make := func(name string, invalid bool, override map[string]string, body any) genRequest {
		return genRequest{name: name, invalid: invalid, build: func(token string) *http.Request {
			target, query := path, url.Values{}
			for _, key := range order {
				p := params[key]
				v, set := override[key]
				if !set {
					if !p.Required {
						continue
					}
					v = fmt.Sprint(exampleOf(p.Schema.Value))
				}
				if p.In == "path" {
					target = strings.Replace(target, "{"+p.Name+"}", url.PathEscape(v), 1)
				} else {
					query.Set(p.Name, v)
				}
			}
			if len(query) > 0 {
				target += "?" + query.Encode()
			}
			var reader io.Reader
			if body != nil {
				reader = bytes.NewReader(encodeBody(mediaType, body))
			}
			req := httptest.NewRequest(method, target, reader)
			if body != nil {
				req.Header.Set("Content-Type", mediaType)
			}
			if auth {
				req.Header.Set("Authorization", "Bearer "+token)
			}
			return req
		}}
	}
	var valid any
	if bodySchema != nil {
		valid = exampleOf(bodySchema)
	}
	out := []genRequest{make("valid", false, nil, valid)}
	for _, key := range order {
		for i, bad := range badTexts(params[key].Schema.Value) {
			out = append(out, make(fmt.Sprintf("invalid %s #%d", key, i), true, map[string]string{key: bad}, valid))
		}
	}
	if bodySchema != nil {
		for _, prop := range slices.Sorted(mapKeys(bodySchema.Properties)) {
			ps := bodySchema.Properties[prop].Value
			for i, bad := range badValues(ps, mediaType) {
				body := cloneBody(valid)
				body[prop] = bad
				out = append(out, make(fmt.Sprintf("invalid member %s #%d", prop, i), true, nil, body))
			}
			if slices.Contains(bodySchema.Required, prop) {
				body := cloneBody(valid)
				delete(body, prop)
				out = append(out, make("without required member "+prop, true, nil, body))
			}
		}
		if closed := bodySchema.AdditionalProperties.Has; closed != nil && !*closed {
			body := cloneBody(valid)
			body["not_a_documented_member"] = 1
			out = append(out, make("with an undocumented member", true, nil, body))
		}
	}
	return out
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func cloneBody(v any) map[string]any {
	out := map[string]any{}
	for k, val := range v.(map[string]any) {
		out[k] = val
	}
	return out
}

func encodeBody(mediaType string, body any) []byte {
	if mediaType == "application/x-www-form-urlencoded" {
		form := url.Values{}
		for k, v := range body.(map[string]any) {
			if v != nil {
				form.Set(k, fmt.Sprint(v))
			}
		}
		return []byte(form.Encode())
	}
	b, _ := json.Marshal(body)
	return b
}

// exampleOf is a value the schema accepts.
func exampleOf(s *openapi3.Schema) any {
	switch {
	case s.Example != nil:
		return s.Example
	case len(s.Enum) > 0:
		return s.Enum[0]
	case s.Default != nil:
		return s.Default
	}
	if len(s.AllOf) == 1 {
		return exampleOf(s.AllOf[0].Value)
	}
	switch {
	case s.Type.Is("object"):
		obj := map[string]any{}
		for name, p := range s.Properties {
			obj[name] = exampleOf(p.Value)
		}
		return obj
	case s.Type.Is("array"):
		return []any{exampleOf(s.Items.Value)}
	case s.Type.Is("integer"), s.Type.Is("number"):
		n := 1.0
		if s.Min != nil && *s.Min > n {
			n = *s.Min
		}
		return n
	case s.Type.Is("boolean"):
		return true
	}
	switch s.Format {
	case "email":
		return "generated@example.com"
	case "date-time":
		return "2024-05-01T12:00:00Z"
	case "uuid":
		return "0b7c2a8e-4a9f-4d0c-9a53-0a5b8f5e7e11"
	}
	n := uint64(8)
	if s.MinLength > n {
		n = s.MinLength
	}
	if s.MaxLength != nil && *s.MaxLength < n {
		n = *s.MaxLength
	}
	return strings.Repeat("x", int(n))
}

// badTexts are parameter values the schema rejects.
func badTexts(s *openapi3.Schema) []string {
	var out []string
	switch {
	case s.Type.Is("integer"), s.Type.Is("number"):
		out = append(out, "not-a-number")
		if s.Min != nil {
			out = append(out, fmt.Sprint(*s.Min-1))
		}
		if s.Max != nil {
			out = append(out, fmt.Sprint(*s.Max+1))
		}
	case s.Type.Is("boolean"):
		out = append(out, "maybe")
	case s.Type.Is("string"):
		if len(s.Enum) > 0 {
			out = append(out, "not-in-the-enum")
		}
		if s.MaxLength != nil {
			out = append(out, strings.Repeat("x", int(*s.MaxLength)+1))
		}
	}
	return out
}

// badValues are body member values the schema rejects.
func badValues(s *openapi3.Schema, mediaType string) []any {
	var out []any
	if len(s.AllOf) == 1 {
		s = s.AllOf[0].Value
	}
	switch {
	case s.Type.Is("string"):
		if mediaType == "application/json" {
			out = append(out, 12345)
		}
		if !s.Nullable && mediaType == "application/json" {
			out = append(out, nil)
		}
		if len(s.Enum) > 0 {
			out = append(out, "not-in-the-enum")
		}
		if s.MaxLength != nil {
			out = append(out, strings.Repeat("x", int(*s.MaxLength)+1))
		}
		if s.MinLength > 0 {
			out = append(out, "")
		}
		if s.Format == "email" {
			out = append(out, "not-an-email")
		}
	case s.Type.Is("integer"), s.Type.Is("number"):
		out = append(out, "not-a-number")
	case s.Type.Is("boolean"):
		if mediaType == "application/json" {
			out = append(out, "maybe")
		}
	}
	return out
}
