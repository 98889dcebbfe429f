package router

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"reflect"
	"strconv"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

	"github.com/asapjs/fiber-template/platform/openapi"
	"github.com/asapjs/fiber-template/platform/paging"
	"github.com/asapjs/fiber-template/platform/problem"
)

// binding binds and checks the input of one route by its analysed input: a
// setter per field, made at start-up, with the schema the document gives
// each field, and the document's Checker once it is built.
type binding struct {
	input *openapi.Input
	// list reads the paging and sort of a list.
	list   listing
	path   []*param
	query  []*param
	header []*param
	paging []*openapi.InputField
	// headers fills the header inputs the input embeds.
	headers headerInputs
	body    *bodyBinding
	// checker checks values against the document's schemas; nil until the
	// document is built.
	checker *openapi.Checker
}

// param is one path, query or form field and how it is bound and checked.
type param struct {
	f        *openapi.InputField
	set      setter
	setMulti multiSetter
	// schema is the field's documented schema when it constrains values
	// beyond their type, else nil; required is the documented required.
	schema   *openapi.Schema
	required bool
}

// values is where bound values come from: query arguments, URL-encoded
// form arguments (both *fasthttp.Args), request headers or a multipart
// form.
type values interface {
	Peek(name string) []byte
	PeekMulti(name string) [][]byte
}

// newBinding makes the setters of every field of p; bodies are read up
// to bodyLimit bytes, sent gzipped where gzip is true; a list's limit is
// at most maxLimit; headers are the header inputs p's type embeds.
func newBinding(p *openapi.Input, bodyLimit int, gzip bool, maxLimit int, headers headerInputs) (*binding, error) {
	list := listing{paged: p.Paged(), maxLimit: maxLimit, sortKeys: p.SortKeys}
	b := &binding{input: p, paging: p.Paging, list: list, headers: headers}
	var err error
	if b.path, err = newParams(p.Path); err != nil {
		return nil, err
	}
	if b.query, err = newParams(p.Query); err != nil {
		return nil, err
	}
	if b.header, err = newParams(p.Header); err != nil {
		return nil, err
	}
	if p.Body != nil {
		if b.body, err = newBodyBinding(p.Body, bodyLimit, gzip); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// headerValues are the request headers as values: every field of a name,
// case aside.
type headerValues struct{ h *fasthttp.RequestHeader }

// Peek returns the first field of name.
func (v headerValues) Peek(name string) []byte { return v.h.Peek(name) }

// PeekMulti returns every field of name.
func (v headerValues) PeekMulti(name string) [][]byte { return v.h.PeekAll(name) }

// newParams makes the binding of each path, query or header field.
func newParams(fields []*openapi.InputField) ([]*param, error) {
	out := make([]*param, 0, len(fields))
	for _, f := range fields {
		// The field's schema is the one the document gives it: a path
		// value is always there, so only its form is checked.
		p := &param{f: f, schema: effective(f.Schema), required: f.Required && f.In != openapi.InPath}
		if f.File {
			out = append(out, p)
			continue
		}
		var err error
		if f.Multi {
			p.setMulti, err = sliceSetter(f.Struct.Type)
		} else {
			p.set, err = scalarSetter(f.Struct.Type)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// document hands the binding the checker of the built document and the
// documented body of its operation op.
func (b *binding) document(op *openapi.Operation, checker *openapi.Checker) {
	b.checker = checker
	if b.body != nil && op.RequestBody != nil {
		b.body.document(op.RequestBody)
	}
}

// effective is s when it constrains values beyond their type, else nil:
// values a setter parsed need no further check.
func effective(s *openapi.Schema) *openapi.Schema {
	if s.Constrained() {
		return s
	}
	return nil
}

// bind fills the input at in, and the paging of c, from the
// request and checks them against the document: a value that cannot be
// parsed is a 400 naming its field, and values that break documented
// rules are one 422 naming every field.
func (b *binding) bind(fc *fiber.Ctx, in reflect.Value, c *Ctx) error {
	pg, sort, err := b.list.read(fc.Context().QueryArgs())
	if err != nil {
		return err
	}
	c.paging = pg
	for _, idx := range b.input.Allocs {
		if fv := in.FieldByIndex(idx); fv.IsNil() {
			fv.Set(reflect.New(fv.Type().Elem()))
		}
	}
	if f := b.input.Sort; f != nil {
		*in.FieldByIndex(f.Index).Addr().Interface().(*[]paging.SortKey) = sort
	}
	for _, f := range b.paging {
		v := pg.Page
		if f.Paging == paging.LimitParam {
			v = pg.Limit
		}
		in.FieldByIndex(f.Index).SetInt(int64(v))
	}
	var bad []openapi.Violation
	for _, p := range b.path {
		// Clients percent-encode path values; Fiber hands them over raw.
		value, err := url.PathUnescape(fc.Params(p.f.Name))
		if err != nil {
			return fieldProblem(problemDetail(p.f), p.f.Name, "is not a valid percent-encoded value")
		}
		raw := []byte(value)
		if err := p.bindOne(in.FieldByIndex(p.f.Index), raw); err != nil {
			return err
		}
		bad = b.checkOne(p, raw, bad)
	}
	for _, p := range b.query {
		var err error
		if bad, err = b.bindValues(p, in, fc.Context().QueryArgs(), bad); err != nil {
			return err
		}
	}
	for _, p := range b.header {
		var err error
		if bad, err = b.bindValues(p, in, headerValues{&fc.Request().Header}, bad); err != nil {
			return err
		}
	}
	if err := b.headers.bind(fc, in, c); err != nil {
		return err
	}
	if b.body != nil {
		var err error
		if bad, err = b.body.bind(b, fc, in.FieldByIndex(b.input.Body.Struct.Index), bad); err != nil {
			return err
		}
	}
	if len(bad) > 0 {
		return violationsProblem(bad)
	}
	return nil
}

// repeatedMessage is what a parameter of one value sent more than once is
// told: which of them the client meant is not the server's to guess.
const repeatedMessage = "must be sent once"

// sentTwice reports whether src carries name more than once.
func sentTwice(src values, name string) bool {
	args, ok := src.(*fasthttp.Args)
	if !ok {
		return len(src.PeekMulti(name)) > 1
	}
	n := 0
	for key := range args.All() {
		if string(key) == name {
			if n++; n > 1 {
				return true
			}
		}
	}
	return false
}

// bindValues binds and checks a query, header or form field from src. An
// absent value leaves the field as it is; so does an empty form value (a
// blank form input), while an empty query or header value is a 400.
func (b *binding) bindValues(p *param, base reflect.Value, src values, bad []openapi.Violation) ([]openapi.Violation, error) {
	if !p.f.Multi {
		raw := src.Peek(p.f.Name)
		if len(raw) == 0 {
			if p.f.In != openapi.InForm && len(src.PeekMulti(p.f.Name)) > 0 {
				return bad, fieldProblem(problemDetail(p.f), p.f.Name, emptyMessage)
			}
			return p.absent(bad), nil
		}
		if sentTwice(src, p.f.Name) {
			return bad, fieldProblem(problemDetail(p.f), p.f.Name, repeatedMessage)
		}
		if err := p.bindOne(base.FieldByIndex(p.f.Index), raw); err != nil {
			return bad, err
		}
		return b.checkOne(p, raw, bad), nil
	}
	raws := src.PeekMulti(p.f.Name)
	if len(raws) == 0 {
		return p.absent(bad), nil
	}
	for _, raw := range raws {
		if len(raw) == 0 && p.f.In == openapi.InQuery {
			return bad, fieldProblem(problemDetail(p.f), p.f.Name, emptyMessage)
		}
		if msg := textProblem(raw); msg != "" {
			return bad, fieldProblem(problemDetail(p.f), p.f.Name, msg)
		}
	}
	if err := p.setMulti(base.FieldByIndex(p.f.Index), raws); err != nil {
		return bad, fieldProblem(problemDetail(p.f), p.f.Name, err.Error())
	}
	return b.check(p, raws, bad), nil
}

// absent appends the violation of a required field that was not sent.
func (p *param) absent(bad []openapi.Violation) []openapi.Violation {
	if p.required {
		bad = append(bad, openapi.Violation{Field: p.f.Name, Message: "is required"})
	}
	return bad
}

// textProblem is what is wrong with a parameter's or form field's raw
// value as text, or "": a NUL character (no database stores one in text),
// or bytes that are not UTF-8 (the document's strings are Unicode, and a
// JSON body with them is refused alike).
func textProblem(raw []byte) string {
	switch {
	case bytes.IndexByte(raw, 0) >= 0:
		return "must not contain NUL characters"
	case !utf8.Valid(raw):
		return "must be UTF-8 text"
	}
	return ""
}

// bindOne parses raw into the field at ptr.
func (p *param) bindOne(v reflect.Value, raw []byte) error {
	if msg := textProblem(raw); msg != "" {
		return fieldProblem(problemDetail(p.f), p.f.Name, msg)
	}
	if err := p.set(v, raw); err != nil {
		return fieldProblem(problemDetail(p.f), p.f.Name, err.Error())
	}
	return nil
}

// check appends the violations of the repeated raw values of p against its
// schema.
func (b *binding) check(p *param, raws [][]byte, bad []openapi.Violation) []openapi.Violation {
	if p.schema == nil || b.checker == nil {
		return bad
	}
	items := make([]any, len(raws))
	for i, raw := range raws {
		items[i] = textValue(p.schema.Items, raw)
	}
	// Repeated keys have one name: a problem with any of them names it.
	n := len(bad)
	bad = b.checker.Check(p.schema, items, p.f.Name, bad)
	for i := n; i < len(bad); i++ {
		bad[i].Field = p.f.Name
	}
	return bad
}

// checkOne appends the violations of the single value raw of p against
// its schema.
func (b *binding) checkOne(p *param, raw []byte, bad []openapi.Violation) []openapi.Violation {
	if p.schema == nil || b.checker == nil {
		return bad
	}
	return b.checker.CheckText(p.schema, string(raw), p.f.Name, bad)
}

// textValue is a parsed text value as JSON would carry it, for the schema
// s: the setter has already parsed it, so a number or boolean is valid.
func textValue(s *openapi.Schema, raw []byte) any {
	if s == nil {
		return string(raw)
	}
	switch s.Type {
	case "integer", "number":
		return json.Number(raw)
	case "boolean":
		v, _ := strconv.ParseBool(string(raw))
		return v
	}
	return string(raw)
}

// problemDetail is the detail of a 400 about a field in its location.
func problemDetail(f *openapi.InputField) string {
	switch f.In {
	case openapi.InPath:
		return "Invalid path parameter."
	case openapi.InQuery:
		return "Invalid query parameter."
	case openapi.InHeader:
		return "Invalid header."
	}
	return "Invalid form field."
}

// maxListed is how many field errors a problem lists at most; its detail
// says how many there were.
const maxListed = 20

// violationsProblem is the answer to violations of the documented rules: a
// 400 when a value is malformed, else a 422, listing each field once (the
// first maxListed of them). A violation of the body as a whole is named
// "body".
func violationsProblem(bad []openapi.Violation) *problem.Problem {
	malformed := false
	for _, v := range bad {
		malformed = malformed || v.Malformed
	}
	var errs []problem.FieldError
	seen := map[string]bool{}
	listed := 0
	for _, v := range bad {
		if v.Field == "" {
			v.Field = "body"
		}
		if (malformed && !v.Malformed) || seen[v.Field] {
			continue
		}
		seen[v.Field] = true
		if listed++; listed <= maxListed {
			errs = append(errs, problem.FieldError{Field: v.Field, Message: v.Message})
		}
	}
	p := problem.Invalid(errs...)
	if malformed {
		p = problem.Malformed("The request does not have the documented shape.", errs...)
	}
	if listed > maxListed {
		p.Detail = fmt.Sprintf("%s The first %d of %d errors are listed.", p.Detail, maxListed, listed)
	}
	return p
}

// fieldProblem is the 400 naming one input field and what is wrong with it.
func fieldProblem(detail, field, message string) *problem.Problem {
	return problem.Malformed(detail, problem.FieldError{Field: field, Message: message})
}
