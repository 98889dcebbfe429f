package openapi

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// Media types a request body can be documented with.
const (
	// MediaJSON is the media type of JSON bodies.
	MediaJSON = "application/json"
	// MediaForm is the media type of URL-encoded form bodies.
	MediaForm = "application/x-www-form-urlencoded"
	// MediaMultipart is the media type of multipart form bodies, the ones
	// that can carry files.
	MediaMultipart = "multipart/form-data"
	// MediaProblem is the media type of every error response.
	MediaProblem = "application/problem+json"
)

// input is what a route's Input type documents.
type input struct {
	// params are the path parameters in path order, then the query
	// parameters in field order.
	params []*Parameter
	body   *RequestBody
	// declared reports whether the Input has any path, query or body
	// field, that is whether the route binds and validates input.
	declared bool
}

// inputField is one path, query or body field of an Input type.
type inputField struct {
	sf   reflect.StructField
	in   string // "path", "query" or "body"
	name string
}

// input documents the Input type of rt, whose path has the parameters
// pathParams:
//
//   - a field tagged path:"id" is the path parameter id; a path parameter
//     with no field is a string;
//   - a field tagged query:"role" is a query parameter;
//   - the field named Body is the request body, in each media type of
//     rt.BodyContentTypes;
//   - untagged embedded structs are flattened; anything else is ignored.
func (g *gen) input(rt Route, pathParams []string) (*input, error) {
	in := &input{}
	var fields []inputField
	if rt.Input != nil {
		t := rt.Input
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct {
			return nil, fmt.Errorf("input type %s is not a struct", rt.Input)
		}
		var err error
		if fields, err = inputFields(t, map[reflect.Type]bool{}); err != nil {
			return nil, fmt.Errorf("input type %s: %w", t, err)
		}
	}
	in.declared = len(fields) > 0

	byPath := map[string]reflect.StructField{}
	queryNames := map[string]bool{}
	var query []*Parameter
	var body *inputField
	for i, f := range fields {
		switch f.in {
		case "path":
			if _, dup := byPath[f.name]; dup {
				return nil, fmt.Errorf("two input fields are the path parameter %q", f.name)
			}
			if !slices.Contains(pathParams, f.name) {
				return nil, fmt.Errorf("input field %s is the path parameter %q, but the path has no :%s", f.sf.Name, f.name, f.name)
			}
			byPath[f.name] = f.sf
		case "query":
			if queryNames[f.name] {
				return nil, fmt.Errorf("two input fields are the query parameter %q", f.name)
			}
			queryNames[f.name] = true
			p, err := g.parameter(f, "query")
			if err != nil {
				return nil, err
			}
			query = append(query, p)
		case "body":
			if body != nil {
				return nil, errors.New("input has two Body fields")
			}
			body = &fields[i]
		}
	}
	for _, name := range pathParams {
		sf, ok := byPath[name]
		if !ok {
			in.params = append(in.params, &Parameter{Name: name, In: "path", Required: true, Schema: &Schema{Type: "string"}})
			continue
		}
		p, err := g.parameter(inputField{sf: sf, in: "path", name: name}, "path")
		if err != nil {
			return nil, err
		}
		in.params = append(in.params, p)
	}
	in.params = append(in.params, query...)

	if body == nil {
		if rt.BodyContentTypes != nil {
			return nil, errors.New("BodyContentTypes is set but the input has no Body field")
		}
		return in, nil
	}
	var err error
	if in.body, err = g.requestBody(body.sf, rt.BodyContentTypes); err != nil {
		return nil, err
	}
	return in, nil
}

// inputFields lists the path, query and body fields of struct type t,
// flattening untagged embedded structs.
func inputFields(t reflect.Type, visiting map[reflect.Type]bool) ([]inputField, error) {
	if visiting[t] {
		return nil, nil
	}
	visiting[t] = true
	defer delete(visiting, t)
	var out []inputField
	for i := range t.NumField() {
		sf := t.Field(i)
		pathName, isPath := tagName(sf, "path")
		queryName, isQuery := tagName(sf, "query")
		if sf.Anonymous && !isPath && !isQuery {
			ft := sf.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				inner, err := inputFields(ft, visiting)
				if err != nil {
					return nil, err
				}
				out = append(out, inner...)
				continue
			}
		}
		if !sf.IsExported() {
			continue
		}
		switch {
		case isPath && isQuery:
			return nil, fmt.Errorf("field %s has both a path and a query tag", sf.Name)
		case isPath:
			out = append(out, inputField{sf: sf, in: "path", name: pathName})
		case isQuery:
			out = append(out, inputField{sf: sf, in: "query", name: queryName})
		case sf.Name == "Body" && !sf.Anonymous:
			out = append(out, inputField{sf: sf, in: "body"})
		}
	}
	return out, nil
}

// tagName returns the name in the tag key of sf, if it has one that is not
// "-".
func tagName(sf reflect.StructField, key string) (string, bool) {
	v, ok := sf.Tag.Lookup(key)
	name, _, _ := strings.Cut(v, ",")
	if !ok || name == "" || name == "-" {
		return "", false
	}
	return name, true
}

// parameter documents a path or query parameter field. Parameters are
// scalars or, in the query, arrays of scalars sent as repeated keys.
func (g *gen) parameter(f inputField, in string) (*Parameter, error) {
	t := f.sf.Type
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	s, err := g.schemaOf(t)
	if err != nil {
		return nil, fmt.Errorf("%s parameter %q: %w", in, f.name, err)
	}
	isArray := s.Type == "array" && s.Items != nil && isScalar(s.Items)
	if !isScalar(s) && !(isArray && in == "query") {
		want := "a scalar"
		if in == "query" {
			want = "a scalar or a slice of scalars"
		}
		return nil, fmt.Errorf("%s parameter %q: type %s is not %s", in, f.name, f.sf.Type, want)
	}
	s, required, err := applyTags(s, f.sf.Tag)
	if err != nil {
		return nil, fmt.Errorf("%s parameter %q: %w", in, f.name, err)
	}
	if f.sf.Tag.Get("paging") == "limit" {
		s.Maximum = ptr(float64(g.r.cfg.PageLimitMax))
	}
	p := &Parameter{Name: f.name, In: in, Description: s.Description, Required: required || in == "path", Schema: s}
	s.Description = ""
	if isArray {
		p.Style, p.Explode = "form", ptr(true)
	}
	return p, nil
}

// isScalar reports whether s is a string, number, integer or boolean.
func isScalar(s *Schema) bool {
	if s.Ref != "" {
		return false
	}
	switch s.Type {
	case "string", "number", "integer", "boolean":
		return true
	}
	return false
}

// requestBody documents the Body field sf in each of the media types.
func (g *gen) requestBody(sf reflect.StructField, mediaTypes []string) (*RequestBody, error) {
	if len(mediaTypes) == 0 {
		mediaTypes = []string{MediaJSON}
	}
	t := sf.Type
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	rb := &RequestBody{Description: sf.Tag.Get("doc"), Content: map[string]*MediaType{}, Required: true}
	for _, mt := range mediaTypes {
		if _, dup := rb.Content[mt]; dup {
			return nil, fmt.Errorf("body media type %q is listed twice", mt)
		}
		var s *Schema
		var err error
		switch mt {
		case MediaJSON:
			s, err = g.schemaOf(t)
		case MediaForm, MediaMultipart:
			s, err = g.formObject(t)
		default:
			return nil, fmt.Errorf("body media type %q is not one of %s, %s, %s", mt, MediaJSON, MediaForm, MediaMultipart)
		}
		if err != nil {
			return nil, fmt.Errorf("body as %s: %w", mt, err)
		}
		rb.Content[mt] = &MediaType{Schema: s}
	}
	return rb, nil
}

// formObject returns the inline object schema of a form body type, whose
// properties are named by the form tag, else the json name.
func (g *gen) formObject(t reflect.Type) (*Schema, error) {
	if s, ok := g.r.forms[t]; ok {
		return s, nil
	}
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("form body type %s is not a struct", t)
	}
	s, err := g.object(t, formName)
	if err != nil {
		return nil, err
	}
	g.r.forms[t] = s
	g.forms = append(g.forms, t)
	return s, nil
}
