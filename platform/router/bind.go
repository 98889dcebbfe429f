package router

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"mime/multipart"
	"net/http"
	"reflect"
	"strconv"
	"strings"
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

// bodyPlan decodes the request body into the field named Body.
type bodyPlan struct {
	offset       uintptr
	typ          reflect.Type
	contentTypes []string
	form         []fieldPlan // form fields, for URL-encoded and multipart bodies
	files        []fileField
}

type fileField struct {
	name   string
	offset uintptr
	multi  bool
}

// setter converts a raw value into the field at p.
type setter func(p unsafe.Pointer, raw []byte) error

// multiSetter converts repeated raw values into the slice field at p.
type multiSetter func(p unsafe.Pointer, raw [][]byte) error

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

func newBodyPlan(t reflect.Type, off uintptr, contentTypes []string) (*bodyPlan, error) {
	b := &bodyPlan{offset: off, typ: t, contentTypes: contentTypes}
	formish := false
	for _, ct := range contentTypes {
		formish = formish || ct != MIMEJSON
	}
	if !formish {
		return b, nil
	}
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("body type %s must be a struct to be bound from a form", t)
	}
	for i := range t.NumField() {
		f := t.Field(i)
		name := formName(f)
		if name == "" {
			continue
		}
		switch f.Type {
		case fileHeaderType, fileHeadersType:
			b.files = append(b.files, fileField{name: name, offset: f.Offset, multi: f.Type == fileHeadersType})
			continue
		}
		fp, err := newFieldPlan(f, name, f.Offset, true)
		if err != nil {
			return nil, fmt.Errorf("body: %w", err)
		}
		b.form = append(b.form, fp)
	}
	return b, nil
}

// formName is the form field name: the form tag, else the JSON name.
func formName(f reflect.StructField) string {
	if !f.IsExported() {
		return ""
	}
	for _, key := range []string{"form", "json"} {
		if tag, ok := f.Tag.Lookup(key); ok {
			name, _, _ := strings.Cut(tag, ",")
			if name == "-" {
				return ""
			}
			if name != "" {
				return name
			}
		}
	}
	return f.Name
}

// scalarSetter returns the setter of a single value of type t.
func scalarSetter(t reflect.Type) (setter, error) {
	if reflect.PointerTo(t).Implements(textUnmarshalerType) {
		return func(p unsafe.Pointer, raw []byte) error {
			return reflect.NewAt(t, p).Interface().(encoding.TextUnmarshaler).UnmarshalText(raw)
		}, nil
	}
	switch t.Kind() {
	case reflect.String:
		return func(p unsafe.Pointer, raw []byte) error {
			*(*string)(p) = string(raw)
			return nil
		}, nil
	case reflect.Bool:
		return func(p unsafe.Pointer, raw []byte) error {
			v, err := strconv.ParseBool(string(raw))
			if err != nil {
				return errors.New("must be true or false")
			}
			*(*bool)(p) = v
			return nil
		}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		bits := t.Bits()
		store := intStore(t.Kind())
		return func(p unsafe.Pointer, raw []byte) error {
			v, err := strconv.ParseInt(string(raw), 10, bits)
			if err != nil {
				return fmt.Errorf("must be a base-10 integer that fits %d bits", bits)
			}
			store(p, v)
			return nil
		}, nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		bits := t.Bits()
		store := uintStore(t.Kind())
		return func(p unsafe.Pointer, raw []byte) error {
			v, err := strconv.ParseUint(string(raw), 10, bits)
			if err != nil {
				return fmt.Errorf("must be a non-negative base-10 integer that fits %d bits", bits)
			}
			store(p, v)
			return nil
		}, nil
	case reflect.Float32, reflect.Float64:
		bits := t.Bits()
		return func(p unsafe.Pointer, raw []byte) error {
			v, err := strconv.ParseFloat(string(raw), bits)
			if err != nil {
				return errors.New("must be a number")
			}
			if bits == 32 {
				*(*float32)(p) = float32(v)
			} else {
				*(*float64)(p) = v
			}
			return nil
		}, nil
	case reflect.Pointer:
		elem := t.Elem()
		inner, err := scalarSetter(elem)
		if err != nil {
			return nil, err
		}
		return func(p unsafe.Pointer, raw []byte) error {
			v := reflect.New(elem).UnsafePointer()
			if err := inner(v, raw); err != nil {
				return err
			}
			// A pointer field is one pointer word: store the new value's
			// address in it.
			*(*unsafe.Pointer)(p) = v
			return nil
		}, nil
	}
	return nil, fmt.Errorf("unsupported type %s", t)
}

// intStore writes a parsed signed integer into a field of kind k; the
// parser already checked that it fits.
func intStore(k reflect.Kind) func(p unsafe.Pointer, v int64) {
	switch k {
	case reflect.Int8:
		return func(p unsafe.Pointer, v int64) { *(*int8)(p) = int8(v) }
	case reflect.Int16:
		return func(p unsafe.Pointer, v int64) { *(*int16)(p) = int16(v) }
	case reflect.Int32:
		return func(p unsafe.Pointer, v int64) { *(*int32)(p) = int32(v) }
	case reflect.Int64:
		return func(p unsafe.Pointer, v int64) { *(*int64)(p) = v }
	default:
		return func(p unsafe.Pointer, v int64) { *(*int)(p) = int(v) }
	}
}

// uintStore writes a parsed unsigned integer into a field of kind k.
func uintStore(k reflect.Kind) func(p unsafe.Pointer, v uint64) {
	switch k {
	case reflect.Uint8:
		return func(p unsafe.Pointer, v uint64) { *(*uint8)(p) = uint8(v) }
	case reflect.Uint16:
		return func(p unsafe.Pointer, v uint64) { *(*uint16)(p) = uint16(v) }
	case reflect.Uint32:
		return func(p unsafe.Pointer, v uint64) { *(*uint32)(p) = uint32(v) }
	case reflect.Uint64:
		return func(p unsafe.Pointer, v uint64) { *(*uint64)(p) = v }
	default:
		return func(p unsafe.Pointer, v uint64) { *(*uint)(p) = uint(v) }
	}
}

// sliceSetter returns the setter of a slice bound from repeated values.
func sliceSetter(t reflect.Type) (multiSetter, error) {
	elem := t.Elem()
	inner, err := scalarSetter(elem)
	if err != nil {
		return nil, err
	}
	return func(p unsafe.Pointer, raw [][]byte) error {
		s := reflect.MakeSlice(t, len(raw), len(raw))
		for i := range raw {
			if err := inner(s.Index(i).Addr().UnsafePointer(), raw[i]); err != nil {
				return err
			}
		}
		reflect.NewAt(t, p).Elem().Set(s)
		return nil
	}, nil
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
			return fieldProblem(http.StatusBadRequest, "Invalid path parameter.", f.name, err)
		}
	}
	if len(p.query) > 0 {
		args := fc.Context().QueryArgs()
		for i := range p.query {
			f := &p.query[i]
			if err := bindArg(f, in, args); err != nil {
				return fieldProblem(http.StatusBadRequest, "Invalid query parameter.", f.name, err)
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

// multipartValues serves the values of a multipart form.
type multipartValues map[string][]string

func (m multipartValues) Peek(name string) []byte {
	if v := m[name]; len(v) > 0 {
		return []byte(v[0])
	}
	return nil
}

func (m multipartValues) PeekMulti(name string) [][]byte {
	vals := m[name]
	out := make([][]byte, len(vals))
	for i, v := range vals {
		out[i] = []byte(v)
	}
	return out
}

func (b *bodyPlan) bind(fc *fiber.Ctx, dst unsafe.Pointer) error {
	ct := mediaType(fc.Request().Header.ContentType())
	body := fc.Body()
	if ct == "" && len(body) > 0 {
		ct = MIMEJSON
	}
	if ct == "" {
		return problem.New(http.StatusBadRequest, "The request body is required.")
	}
	if !b.accepts(ct) {
		return problem.New(http.StatusUnsupportedMediaType, "The request body must be sent as one of: "+strings.Join(b.contentTypes, ", ")+".")
	}
	switch ct {
	case MIMEJSON:
		if len(bytes.TrimSpace(body)) == 0 {
			return problem.New(http.StatusBadRequest, "The request body is required.")
		}
		if err := json.Unmarshal(body, reflect.NewAt(b.typ, dst).Interface()); err != nil {
			return jsonProblem(err)
		}
		return nil
	case MIMEForm:
		args := fc.Context().PostArgs()
		for i := range b.form {
			f := &b.form[i]
			if err := bindArg(f, dst, args); err != nil {
				return fieldProblem(http.StatusBadRequest, "Invalid form field.", f.name, err)
			}
		}
		return nil
	default:
		form, err := fc.MultipartForm()
		if err != nil {
			return problem.New(http.StatusBadRequest, "The multipart body could not be parsed.")
		}
		for i := range b.form {
			f := &b.form[i]
			if err := bindArg(f, dst, multipartValues(form.Value)); err != nil {
				return fieldProblem(http.StatusBadRequest, "Invalid form field.", f.name, err)
			}
		}
		for _, f := range b.files {
			files := form.File[f.name]
			if len(files) == 0 {
				continue
			}
			if f.multi {
				*(*[]*multipart.FileHeader)(unsafe.Add(dst, f.offset)) = files
			} else {
				*(**multipart.FileHeader)(unsafe.Add(dst, f.offset)) = files[0]
			}
		}
		return nil
	}
}

func (b *bodyPlan) accepts(ct string) bool {
	for _, c := range b.contentTypes {
		if c == ct {
			return true
		}
	}
	return false
}

// mediaType returns the lower-case media type without parameters.
func mediaType(h []byte) string {
	if i := bytes.IndexByte(h, ';'); i >= 0 {
		h = h[:i]
	}
	return strings.ToLower(string(bytes.TrimSpace(h)))
}

// jsonProblem turns a decoding error into a 400 that names the field when
// the value had the wrong JSON type, without echoing decoder internals.
func jsonProblem(err error) error {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) && typeErr.Field != "" {
		return fieldProblem(http.StatusBadRequest, "The request body has a value of the wrong type.",
			typeErr.Field, fmt.Errorf("must be %s, not %s", jsonKind(typeErr.Type), typeErr.Value))
	}
	return problem.New(http.StatusBadRequest, "The request body is not valid JSON.")
}

func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	default:
		return "an object"
	}
}

func fieldProblem(status int, detail, field string, err error) *problem.Problem {
	p := problem.New(status, detail)
	p.Errors = []problem.FieldError{{Field: field, Message: err.Error()}}
	return p
}
