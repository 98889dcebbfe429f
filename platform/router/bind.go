package router

import (
	"encoding"
	"fmt"
	"mime/multipart"
	"net/http"
	"reflect"
	"unsafe"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/paging"
	"github.com/asapjs/fiber-template/platform/problem"
)

// bindPlan is the binding of one input type, computed once at start-up: for
// each field its offset in the struct and a setter, so a request is bound
// without walking the type again.
type bindPlan struct {
	path  []fieldPlan
	query []fieldPlan
	page  []uintptr // offsets of embedded paging page fields
	limit []uintptr // offsets of embedded paging limit fields
	body  *bodyPlan
}

// fieldPlan binds one field from one named value, or from repeated values
// when setMulti is set.
type fieldPlan struct {
	name     string
	offset   uintptr
	set      setter
	setMulti multiSetter
}

// values is where bound values come from: query arguments, URL-encoded
// form arguments (both *fasthttp.Args) or a multipart form.
type values interface {
	Peek(name string) []byte
	PeekMulti(name string) [][]byte
}

var (
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
	fileHeaderType      = reflect.TypeFor[*multipart.FileHeader]()
	fileHeadersType     = reflect.TypeFor[[]*multipart.FileHeader]()
	pagingQueryType     = reflect.TypeFor[paging.Query]()
)

// newBindPlan plans the binding of t, a struct type, for a route whose path
// has the given parameters and whose body may come as contentTypes.
func newBindPlan(t reflect.Type, params []string, contentTypes []string) (*bindPlan, error) {
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("input type %s is not a struct", t)
	}
	p := &bindPlan{}
	if err := p.walk(t, 0, contentTypes); err != nil {
		return nil, err
	}
	bound := map[string]bool{}
	for _, f := range p.path {
		bound[f.name] = true
	}
	for _, name := range params {
		if !bound[name] {
			return nil, fmt.Errorf("path parameter :%s has no field tagged path:%q in %s", name, name, t)
		}
		delete(bound, name)
	}
	for name := range bound {
		return nil, fmt.Errorf("field tagged path:%q in %s has no :%s in the path", name, t, name)
	}
	return p, nil
}

func (p *bindPlan) walk(t reflect.Type, base uintptr, contentTypes []string) error {
	for i := range t.NumField() {
		f := t.Field(i)
		off := base + f.Offset
		switch {
		case f.Anonymous && f.Type == pagingQueryType:
			p.page = append(p.page, off+pagingField(f.Type, "Page").Offset)
			p.limit = append(p.limit, off+pagingField(f.Type, "Limit").Offset)
		case f.Anonymous && f.Type.Kind() == reflect.Struct && f.Tag.Get("path") == "" && f.Tag.Get("query") == "":
			if err := p.walk(f.Type, off, contentTypes); err != nil {
				return err
			}
		case f.Tag.Get("path") != "":
			fp, err := newFieldPlan(f, f.Tag.Get("path"), off, false)
			if err != nil {
				return err
			}
			p.path = append(p.path, fp)
		case f.Tag.Get("query") != "" && f.Tag.Get("query") != "-":
			fp, err := newFieldPlan(f, f.Tag.Get("query"), off, true)
			if err != nil {
				return err
			}
			p.query = append(p.query, fp)
		case f.Name == "Body" && base == 0:
			b, err := newBodyPlan(f.Type, off, contentTypes)
			if err != nil {
				return err
			}
			p.body = b
		}
	}
	return nil
}

func pagingField(t reflect.Type, name string) reflect.StructField {
	f, _ := t.FieldByName(name)
	return f
}

func newFieldPlan(f reflect.StructField, name string, off uintptr, allowMulti bool) (fieldPlan, error) {
	if !f.IsExported() {
		return fieldPlan{}, fmt.Errorf("field %s tagged %q is not exported", f.Name, name)
	}
	t := f.Type
	if allowMulti && t.Kind() == reflect.Slice && t.Elem().Kind() != reflect.Uint8 {
		set, err := sliceSetter(t)
		if err != nil {
			return fieldPlan{}, fmt.Errorf("field %s (%q): %w", f.Name, name, err)
		}
		return fieldPlan{name: name, offset: off, setMulti: set}, nil
	}
	set, err := scalarSetter(t)
	if err != nil {
		return fieldPlan{}, fmt.Errorf("field %s (%q): %w", f.Name, name, err)
	}
	return fieldPlan{name: name, offset: off, set: set}, nil
}

// bind fills the input at in from the request.
func (p *bindPlan) bind(fc *fiber.Ctx, in unsafe.Pointer, pg paging.Paging) error {
	for _, off := range p.page {
		*(*int)(unsafe.Add(in, off)) = pg.Page
	}
	for _, off := range p.limit {
		*(*int)(unsafe.Add(in, off)) = pg.Limit
	}
	for i := range p.path {
		f := &p.path[i]
		if err := f.set(unsafe.Add(in, f.offset), []byte(fc.Params(f.name))); err != nil {
			return fieldProblem(http.StatusBadRequest, "Invalid path parameter.", f.name, err.Error())
		}
	}
	if len(p.query) > 0 {
		args := fc.Context().QueryArgs()
		for i := range p.query {
			f := &p.query[i]
			if err := bindArg(f, in, args); err != nil {
				return fieldProblem(http.StatusBadRequest, "Invalid query parameter.", f.name, err.Error())
			}
		}
	}
	if p.body != nil {
		return p.body.bind(fc, unsafe.Add(in, p.body.offset))
	}
	return nil
}

// bindArg sets f from a single or repeated value; absent values leave the
// field as it is.
func bindArg(f *fieldPlan, in unsafe.Pointer, src values) error {
	if f.setMulti != nil {
		if vals := src.PeekMulti(f.name); len(vals) > 0 {
			return f.setMulti(unsafe.Add(in, f.offset), vals)
		}
		return nil
	}
	if v := src.Peek(f.name); len(v) > 0 {
		return f.set(unsafe.Add(in, f.offset), v)
	}
	return nil
}

// fieldProblem is a problem naming one input field and what is wrong with it.
func fieldProblem(status int, detail, field, message string) *problem.Problem {
	p := problem.New(status, detail)
	p.Errors = []problem.FieldError{{Field: field, Message: message}}
	return p
}
