package router

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"mime/multipart"
	"net/http"
	"reflect"
	"strings"
	"unsafe"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/openapi"
	"github.com/asapjs/fiber-template/platform/problem"
)

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
		name, skip := openapi.FormName(f)
		if skip || !f.IsExported() {
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
				return fieldProblem(http.StatusBadRequest, "Invalid form field.", f.name, err.Error())
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
				return fieldProblem(http.StatusBadRequest, "Invalid form field.", f.name, err.Error())
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
			typeErr.Field, "must be "+jsonKind(typeErr.Type)+", not "+typeErr.Value)
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
