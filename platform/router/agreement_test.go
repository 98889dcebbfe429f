package router_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/asapjs/fiber-template/platform/openapi"
	"github.com/asapjs/fiber-template/platform/paging"
	"github.com/asapjs/fiber-template/platform/router"
)

// The input shapes docs/routes.md documents, in one route each.
type (
	// Filters is embedded by value in one input and by pointer in another.
	Filters struct {
		Role   string `query:"role" validate:"omitempty,oneof=admin member"`
		Active *bool  `query:"active"`
	}
	// code is a text unmarshaler: documented as a string, parsed by its
	// own method.
	code string

	shapesQuery struct {
		paging.Query
		Filters
		Q     string   `query:"q,omitempty" validate:"max=5"`
		N     int      `query:"n" validate:"gte=1,lte=10"`
		Ratio float64  `query:"ratio" validate:"gt=0,lt=1"`
		Tags  []string `query:"tag" validate:"max=2,dive,oneof=a b"`
		IDs   []int64  `query:"id" validate:"max=3,dive,min=1"`
		Code  code     `query:"code"`
	}
	shapesPointer struct {
		*Filters
		Name *string `query:"name" validate:"required,min=2"`
	}
	shapesHeader struct {
		Tenant int     `header:"x-tenant" validate:"gte=1,lte=99"`
		Trace  code    `header:"X-Trace"`
		Note   *string `header:"X-Note" validate:"required,max=4"`
	}
	shapesPath struct {
		ID   int64  `path:"id" validate:"min=1"`
		Slug string `path:"slug" validate:"max=8"`
	}
	shapesJSONBody struct {
		Name  string   `json:"name" validate:"required,max=5"`
		Role  string   `json:"role" validate:"required,oneof=admin member"`
		Note  *string  `json:"note" validate:"omitempty,max=3"`
		Tags  []string `json:"tags" validate:"max=2"`
		Email string   `json:"email" validate:"omitempty,email"`
	}
	shapesJSON  struct{ Body shapesJSONBody }
	shapesForm  struct{ Body shapesFormBody }
	shapesFiles struct{ Body shapesFileBody }

	shapesFormBody struct {
		Email string `form:"e_mail" json:"email" validate:"required,email"`
		Count int    `form:"count" validate:"lte=3"`
	}
	shapesFileBody struct {
		Caption string                `form:"caption" validate:"max=4"`
		File    *multipart.FileHeader `form:"file" validate:"required"`
	}
)

func (c *code) UnmarshalText(b []byte) error {
	if strings.ToUpper(string(b)) != string(b) {
		return fmt.Errorf("must be upper case")
	}
	*c = code(b)
	return nil
}

// shapeRoutes declares one route per shape; each answers its bound input.
func shapeRoutes() router.Group {
	echo := func(v any) (*map[string]any, error) {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		var m map[string]any
		err = json.Unmarshal(b, &m)
		return &m, err
	}
	return router.Group{Path: "/s", Declared: []router.Route{
		router.Get("/query", func(_ *router.Ctx, in *shapesQuery) (*map[string]any, error) { return echo(in) }),
		router.Get("/pointer", func(_ *router.Ctx, in *shapesPointer) (*map[string]any, error) { return echo(in) }),
		router.Get("/header", func(_ *router.Ctx, in *shapesHeader) (*map[string]any, error) { return echo(in) }),
		router.Get("/path/:id/:slug", func(_ *router.Ctx, in *shapesPath) (*map[string]any, error) { return echo(in) }),
		router.Post("/json", func(_ *router.Ctx, in *shapesJSON) (*map[string]any, error) { return echo(in.Body) }),
		router.Post("/form", func(_ *router.Ctx, in *shapesForm) (*map[string]any, error) { return echo(in.Body) },
			router.BodyContentType(router.MediaForm)),
		router.Post("/files", func(_ *router.Ctx, in *shapesFiles) (*map[string]any, error) {
			return echo(map[string]any{"Caption": in.Body.Caption, "File": in.Body.File.Filename})
		}, router.BodyContentType(router.MediaMultipart)),
	}}
}

// TestTheDocumentAndTheBinderAgree builds requests from the served document
// alone: a valid value of every documented parameter and form field reaches
// its Go field, and every value its schema rejects is rejected by the
// server with a problem naming the documented name; a value with a NUL
// character, whatever the schema, with the router's own 400.
func TestTheDocumentAndTheBinderAgree(t *testing.T) {
	t.Parallel()
	r := newRouter(t, router.Config{Controllers: []router.Controller{shapeRoutes()}})
	doc, err := r.Spec().Document()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		path   string
		method string
		// goNames maps each documented name to the Go field it binds.
		goNames map[string]string
	}{
		{"/s/query", "get", map[string]string{"page": "Page", "limit": "Limit", "role": "Role", "active": "Active",
			"q": "Q", "n": "N", "ratio": "Ratio", "tag": "Tags", "id": "IDs", "code": "Code"}},
		{"/s/pointer", "get", map[string]string{"role": "Role", "active": "Active", "name": "Name"}},
		{"/s/path/{id}/{slug}", "get", map[string]string{"id": "ID", "slug": "Slug"}},
		{"/s/header", "get", map[string]string{"X-Tenant": "Tenant", "X-Trace": "Trace", "X-Note": "Note"}},
		// The body echoes by its json names: e_mail is the form name of
		// the field whose json name is email.
		{"/s/form", "post", map[string]string{"e_mail": "email", "count": "Count"}},
	}
	for _, tc := range cases {
		op := doc.Paths[tc.path].Get
		if tc.method == "post" {
			op = doc.Paths[tc.path].Post
		}
		if op == nil {
			t.Fatalf("%s is not documented", tc.path)
		}
		fields := documentedFields(op)
		if len(fields) != len(tc.goNames) {
			t.Errorf("%s documents %d fields, want %d: %v", tc.path, len(fields), len(tc.goNames), fields)
		}
		for _, f := range fields {
			goName, ok := tc.goNames[f.name]
			if !ok {
				t.Errorf("%s documents %s %q, which no Go field binds", tc.path, f.in, f.name)
				continue
			}
			t.Run(tc.path+" "+f.in+" "+f.name, func(t *testing.T) {
				valid := validValue(f.schema)
				resp, body := do(t, r, f.request(tc.path, fields, f.name, valid))
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("a valid %s=%q: status %d: %s", f.name, valid, resp.StatusCode, body)
				}
				echoed := decode[map[string]any](t, body)
				if got, want := fmt.Sprint(echoed[goName]), echoValue(f.schema, valid); got != want {
					t.Errorf("%s=%q bound %s to %s, want %s", f.name, valid, goName, got, want)
				}
				for _, bad := range invalidValues(f.schema) {
					if strings.ContainsRune(bad, 0) && f.in == "header" {
						// A control character in any header is refused
						// with the head, before a route or app.Test's
						// reader sees an answer: head_test.go sends one
						// over a connection.
						continue
					}
					resp, body := do(t, r, f.request(tc.path, fields, f.name, bad))
					switch {
					case strings.ContainsRune(bad, 0) && (f.name == "page" || f.name == "limit"):
						// Page and limit are parsed before anything is bound.
						p := wantProblem(t, resp, body, http.StatusBadRequest)
						if p.Detail != "Invalid paging parameter "+f.name+": must be a base-10 integer, without + or leading zeros, that fits 32 bits." {
							t.Errorf("%s=%q: problem %+v, want the paging parameter's 400", f.name, bad, p)
						}
						continue
					case strings.ContainsRune(bad, 0):
						wantTextRefused(t, resp, body, f.in, f.name, nulMessage)
						continue
					}
					if resp.StatusCode != http.StatusBadRequest && resp.StatusCode != http.StatusUnprocessableEntity {
						t.Errorf("%s=%q, which the schema %s rejects: status %d: %s", f.name, bad, schemaJSON(f.schema), resp.StatusCode, body)
						continue
					}
					wantField(t, wantProblem(t, resp, body, resp.StatusCode), f.name)
				}
			})
		}
	}
}

// docField is a documented parameter or form field.
type docField struct {
	in, name string
	required bool
	schema   *openapi.Schema
}

func documentedFields(op *openapi.Operation) []docField {
	var out []docField
	for _, p := range op.Parameters {
		out = append(out, docField{in: p.In, name: p.Name, required: p.Required, schema: p.Schema})
	}
	if op.RequestBody != nil {
		if mt := op.RequestBody.Content[router.MediaForm]; mt != nil {
			for name, s := range mt.Schema.Properties {
				required := false
				for _, r := range mt.Schema.Required {
					required = required || r == name
				}
				out = append(out, docField{in: "form", name: name, required: required, schema: s})
			}
		}
	}
	return out
}

// request is a request carrying value for the field named name, and a
// valid value for every other required field.
func (f docField) request(path string, fields []docField, name, value string) *http.Request {
	query, form, header := url.Values{}, url.Values{}, http.Header{}
	for _, o := range fields {
		v := validValue(o.schema)
		if o.name == name {
			v = value
		} else if !o.required && o.in != "path" {
			continue
		}
		switch o.in {
		case "path":
			path = strings.Replace(path, "{"+o.name+"}", url.PathEscape(v), 1)
		case "query":
			query.Set(o.name, v)
		case "form":
			form.Set(o.name, v)
		case "header":
			header.Set(o.name, v)
		}
	}
	target := path
	if len(query) > 0 {
		target += "?" + query.Encode()
	}
	if f.in == "form" {
		req := httptest.NewRequest(http.MethodPost, target, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", router.MediaForm)
		return req
	}
	req := httptest.NewRequest(http.MethodGet, target, nil)
	for name, values := range header {
		req.Header[name] = values
	}
	return req
}

// validValue is a value the schema accepts, as text.
func validValue(s *openapi.Schema) string {
	if s.Type == "array" {
		return validValue(s.Items)
	}
	if len(s.Enum) > 0 {
		return fmt.Sprint(s.Enum[0])
	}
	switch s.Type {
	case "integer", "number":
		n := 1.0
		if s.Default != nil {
			n, _ = strconv.ParseFloat(fmt.Sprint(s.Default), 64)
		}
		if s.Minimum != nil && n < *s.Minimum {
			n = *s.Minimum
		}
		if s.Maximum != nil && (n > *s.Maximum || (s.ExclusiveMaximum && n >= *s.Maximum)) {
			n = *s.Maximum
			if s.ExclusiveMaximum {
				n = (*s.Maximum + *s.Minimum) / 2
			}
		}
		if s.Type == "number" && s.ExclusiveMinimum && s.Minimum != nil && n <= *s.Minimum {
			n = *s.Minimum + 0.5
		}
		return strconv.FormatFloat(n, 'f', -1, 64)
	case "boolean":
		return "true"
	}
	switch s.Format {
	case "email":
		return "ada@example.com"
	}
	n := 2
	if s.MinLength != nil && *s.MinLength > n {
		n = *s.MinLength
	}
	return strings.Repeat("X", n)
}

// invalidValues are values the schema rejects, as text: past each bound,
// outside the enum, of another type, and with a NUL (which the router
// refuses before the schema is checked).
func invalidValues(s *openapi.Schema) []string {
	if s.Type == "array" {
		out := invalidValues(s.Items)
		return out
	}
	out := []string{"a\x00b"}
	if len(s.Enum) > 0 {
		out = append(out, "not-in-the-enum")
	}
	switch s.Type {
	case "integer", "number":
		out = append(out, "abc")
		if s.Minimum != nil {
			out = append(out, strconv.FormatFloat(*s.Minimum-1, 'f', -1, 64))
		}
		if s.Maximum != nil {
			out = append(out, strconv.FormatFloat(*s.Maximum+1, 'f', -1, 64))
		}
		if s.Type == "integer" {
			out = append(out, "1.5")
		}
	case "boolean":
		out = append(out, "maybe")
	case "string":
		if s.MaxLength != nil {
			out = append(out, strings.Repeat("X", *s.MaxLength+1))
		}
		if s.MinLength != nil && *s.MinLength > 1 {
			out = append(out, strings.Repeat("X", *s.MinLength-1))
		}
		if s.Format == "email" {
			out = append(out, "not-an-email")
		}
	}
	return out
}

// echoValue is how the echo prints a field that got valid.
func echoValue(s *openapi.Schema, valid string) string {
	switch {
	case s.Type == "array":
		return "[" + valid + "]"
	case s.Type == "integer" || s.Type == "number":
		f, _ := strconv.ParseFloat(valid, 64)
		return fmt.Sprint(f)
	}
	return valid
}

func schemaJSON(s *openapi.Schema) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestJSONBodiesAreCheckedAgainstTheirSchema sends JSON bodies against the
// documented schema: what it accepts binds, what it rejects is refused with
// the member named, and the decoding is strict.
func TestJSONBodiesAreCheckedAgainstTheirSchema(t *testing.T) {
	t.Parallel()
	r := newRouter(t, router.Config{Controllers: []router.Controller{shapeRoutes()}})
	post := func(body, contentType string) (*http.Response, []byte) {
		req := httptest.NewRequest(http.MethodPost, "/s/json", strings.NewReader(body))
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		return do(t, r, req)
	}
	t.Run("a body the schema accepts binds every member", func(t *testing.T) {
		resp, body := post(`{"name":"Ada","role":"admin","note":null,"tags":["x"],"email":"a@b.co"}`, router.MediaJSON)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("status %d: %s", resp.StatusCode, body)
		}
		got := decode[map[string]any](t, body)
		if got["name"] != "Ada" || got["role"] != "admin" || got["note"] != nil || fmt.Sprint(got["tags"]) != "[x]" || got["email"] != "a@b.co" {
			t.Errorf("bound %v", got)
		}
	})
	cases := []struct {
		name, body, contentType string
		status                  int
		field                   string
	}{
		{"a missing required member", `{"role":"admin"}`, router.MediaJSON, 422, "name"},
		{"an empty required string", `{"name":"","role":"admin"}`, router.MediaJSON, 422, "name"},
		{"a string past its length, counted in characters", `{"name":"ÄÄÄÄÄÄ","role":"admin"}`, router.MediaJSON, 422, "name"},
		{"null for a member that is not nullable", `{"name":"Ada","role":null}`, router.MediaJSON, 422, "role"},
		{"a value outside the enum", `{"name":"Ada","role":"root"}`, router.MediaJSON, 422, "role"},
		{"a nullable member past its length", `{"name":"Ada","role":"admin","note":"long"}`, router.MediaJSON, 422, "note"},
		{"too many items", `{"name":"Ada","role":"admin","tags":["a","b","c"]}`, router.MediaJSON, 422, "tags"},
		{"a bad email", `{"name":"Ada","role":"admin","email":"nope"}`, router.MediaJSON, 422, "email"},
		{"a NUL in a string", `{"name":"A\u0000a","role":"admin"}`, router.MediaJSON, 422, "name"},
		{"a member of the wrong type", `{"name":5,"role":"admin"}`, router.MediaJSON, 400, "name"},
		{"a member spelt in another case", `{"name":"Ada","ROLE":"admin","role":"member"}`, router.MediaJSON, 400, "ROLE"},
		{"a duplicated member", `{"name":"Ada","role":"member","role":"admin"}`, router.MediaJSON, 400, "role"},
		{"an unknown member", `{"name":"Ada","role":"member","is_admin":true}`, router.MediaJSON, 400, "is_admin"},
		{"a body that is not JSON", `{"name":`, router.MediaJSON, 400, ""},
		{"a body without a Content-Type", `{"name":"Ada","role":"admin"}`, "", 415, ""},
		{"a body in another media type", `name=Ada`, router.MediaForm, 415, ""},
	}
	// A large body (over 64 KB, here by leading white space) is scanned
	// in place before it is decoded: the answers must not change.
	padding := strings.Repeat(" ", 70<<10)
	for _, tc := range cases {
		for _, pad := range []string{"", padding} {
			name := tc.name + " is a " + strconv.Itoa(tc.status)
			if pad != "" {
				name += " in a large body"
			}
			t.Run(name, func(t *testing.T) {
				resp, body := post(pad+tc.body, tc.contentType)
				p := wantProblem(t, resp, body, tc.status)
				if tc.field != "" {
					wantField(t, p, tc.field)
				}
			})
		}
	}
}

func TestMultipartFilesAreBoundAndRequired(t *testing.T) {
	t.Parallel()
	r := newRouter(t, router.Config{Controllers: []router.Controller{shapeRoutes()}})
	upload := func(caption string, withFile bool) (*http.Response, []byte) {
		var buf bytes.Buffer
		w := multipart.NewWriter(&buf)
		_ = w.WriteField("caption", caption)
		if withFile {
			fw, _ := w.CreateFormFile("file", "a.txt")
			_, _ = fw.Write([]byte("hello"))
		}
		_ = w.Close()
		req := httptest.NewRequest(http.MethodPost, "/s/files", &buf)
		req.Header.Set("Content-Type", w.FormDataContentType())
		return do(t, r, req)
	}
	resp, body := upload("hi", true)
	if resp.StatusCode != http.StatusOK || decode[map[string]any](t, body)["File"] != "a.txt" {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	resp, body = upload("hi", false)
	wantField(t, wantProblem(t, resp, body, http.StatusUnprocessableEntity), "file")
	resp, body = upload("longer", true)
	wantField(t, wantProblem(t, resp, body, http.StatusUnprocessableEntity), "caption")
}
