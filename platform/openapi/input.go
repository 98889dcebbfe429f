package openapi

import (
	"errors"
	"fmt"
	"reflect"
	"slices"

	"github.com/asapjs/fiber-template/platform/paging"
)

// input is what a route's input plan documents.
type input struct {
	// plan is the analysis of the input type, its fields given their
	// documented schemas.
	plan *Input
	// params are the path parameters in path order, then the query
	// parameters (page and limit among them) and the headers, each in
	// field order.
	params []*Parameter
	body   *RequestBody
	// declared reports whether the route binds any input, paging
	// included, and so may answer 400.
	declared bool
	// checked reports whether any documented constraint applies to the
	// input, and so the route may answer 422.
	checked bool
}

// input documents the input plan of rt (analysing rt.Input when rt has no
// plan): each path, query and paging field is a parameter named as the
// plan names it, and the body is documented in each of its media types.
func (g *gen) input(rt Route, pathParams []string) (*input, error) {
	t := rt.Input
	if t == nil {
		t = pathOnlyInput(pathParams)
	}
	p, err := analyzeInput(t, pathParams, rt.BodyContentTypes)
	if err != nil {
		return nil, err
	}
	in := &input{plan: p, declared: p.Declared()}
	// The query parameters in field order, page and limit among them.
	query := slices.Concat(p.Query, p.Paging)
	slices.SortStableFunc(query, func(a, b *InputField) int { return slices.Compare(a.Index, b.Index) })
	for _, f := range slices.Concat(p.Path, query, p.Header) {
		param, err := g.parameter(f)
		if err != nil {
			return nil, err
		}
		// Page and limit are parsed apart, and answer 400, not 422.
		if f.Paging == "" {
			in.checked = in.checked || (param.Required && f.In != InPath) || param.Schema.Constrained()
		}
		in.params = append(in.params, param)
	}
	if p.Body == nil {
		return in, nil
	}
	if in.body, err = g.requestBody(p.Body); err != nil {
		return nil, err
	}
	// A body is checked against its schema: types, required members and
	// null at least.
	in.checked = true
	return in, nil
}

// pathOnlyInput is the input of a route declared with no Go type: a
// string field for each path parameter.
func pathOnlyInput(params []string) reflect.Type {
	fields := make([]reflect.StructField, len(params))
	for i, name := range params {
		fields[i] = reflect.StructField{
			Name: fmt.Sprintf("P%d", i),
			Type: reflect.TypeFor[string](),
			Tag:  reflect.StructTag(fmt.Sprintf("path:%q", name)),
		}
	}
	return reflect.StructOf(fields)
}

// parameter documents a path, query or paging field. Parameters are
// scalars or, in the query, arrays of scalars sent as repeated keys.
func (g *gen) parameter(f *InputField) (*Parameter, error) {
	in := string(f.In)
	s, required, err := g.fieldSchema(f.Struct)
	if err != nil {
		return nil, fmt.Errorf("%s parameter %q: %w", in, f.Name, err)
	}
	if f.Paging == paging.LimitParam {
		s.Maximum = ptr(float64(g.r.cfg.MaxLimit))
		s.Default = paging.DefaultLimitUnder(g.r.cfg.MaxLimit)
	}
	p := &Parameter{Name: f.Name, In: in, Description: s.Description, Required: required || f.In == InPath, Schema: s}
	f.Schema, f.Required = s, p.Required
	s.Description = ""
	if f.Multi {
		p.Style, p.Explode = "form", ptr(true)
	}
	return p, nil
}

// Constrained reports whether s restricts the values of its type beyond
// the type itself, so that a value of the right type may still be refused
// (with a 422): an enum, a bound, a pattern or a format a Checker enforces.
func (s *Schema) Constrained() bool {
	if s == nil {
		return false
	}
	return len(s.Enum) > 0 || s.MinLength != nil || s.MaxLength != nil || s.Minimum != nil || s.Maximum != nil ||
		s.Pattern != "" || s.MinItems != nil || s.MaxItems != nil || s.MultipleOf != nil || checkedFormats[s.Format] ||
		s.Items.Constrained()
}

// requestBody documents the body of a plan in each of its media types.
func (g *gen) requestBody(b *InputBody) (*RequestBody, error) {
	rb := &RequestBody{Description: b.Struct.Tag.Get("doc"), Content: map[string]*MediaType{}, Required: true}
	for _, mt := range b.MediaTypes {
		var s *Schema
		var err error
		switch mt {
		case MediaJSON:
			s, err = g.schemaOf(b.Type)
		case MediaMergePatch:
			s, err = g.patchBody(b)
		default:
			s, err = g.formObject(b)
		}
		if err != nil {
			return nil, fmt.Errorf("body as %s: %w", mt, err)
		}
		if slices.Contains(closedMedia, mt) && s.Ref == "" {
			s = closedCopy(s)
		}
		rb.Content[mt] = &MediaType{Schema: s}
		if mt == MediaForm || mt == MediaMultipart {
			// A form's fields carry their properties' schemas (the
			// object may come from the cache of an earlier route).
			for _, f := range b.Form {
				f.Schema, f.Required = s.Properties[f.Name], slices.Contains(s.Required, f.Name)
			}
		}
	}
	return rb, nil
}

// formObject returns the inline object schema of a form body, whose
// properties are the plan's form fields under their form names.
func (g *gen) formObject(b *InputBody) (*Schema, error) {
	if s, ok := g.r.forms[b.Type]; ok {
		return s, nil
	}
	if len(b.Form) == 0 {
		return nil, errors.New("a form body needs at least one field")
	}
	obj := &Schema{Type: "object", Properties: map[string]*Schema{}}
	for _, f := range b.Form {
		fs, required, err := g.fieldSchema(f.Struct)
		if err != nil {
			return nil, fmt.Errorf("form field %q: %w", f.Name, err)
		}
		obj.Properties[f.Name] = fs
		if required {
			obj.Required = append(obj.Required, f.Name)
		}
	}
	g.r.forms[b.Type] = obj
	g.forms = append(g.forms, b.Type)
	return obj, nil
}
