package router

import (
	"bytes"
	"errors"
	"mime/multipart"
	"net/http"
	"reflect"
	"strings"
	"unsafe"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

	"github.com/asapjs/fiber-template/platform/internal/plan"
	"github.com/asapjs/fiber-template/platform/openapi"
	"github.com/asapjs/fiber-template/platform/problem"
)

// bodyBinding decodes the request body into the field named Body and
// checks it against the documented schema of its media type.
type bodyBinding struct {
	plan *plan.Body
	// form binds the fields of a form body.
	form []*param
	// schemas are the documented body schemas by media type.
	schemas map[string]*openapi.Schema
	// limit is the largest body read, in bytes.
	limit int
}

func newBodyBinding(p *plan.Body, limit int) (*bodyBinding, error) {
	b := &bodyBinding{plan: p, limit: limit}
	var err error
	if b.form, err = newParams(p.Form); err != nil {
		return nil, err
	}
	return b, nil
}

// document takes the body schemas, and the form fields' schemas from the
// form object, from the documented request body rb.
func (b *bodyBinding) document(rb *openapi.RequestBody) {
	b.schemas = map[string]*openapi.Schema{}
	for mt, content := range rb.Content {
		b.schemas[mt] = content.Schema
	}
	var form *openapi.Schema
	for _, mt := range []string{MediaForm, MediaMultipart} {
		if s := b.schemas[mt]; s != nil {
			form = s
		}
	}
	if form == nil {
		return
	}
	for _, p := range b.form {
		if s := form.Properties[p.f.Name]; s != nil {
			p.schema = effective(s)
		}
		for _, name := range form.Required {
			p.required = p.required || name == p.f.Name
		}
	}
}

// bind decodes the body into dst, appending the violations of its
// documented rules to bad.
func (b *bodyBinding) bind(rb *binding, fc *fiber.Ctx, dst unsafe.Pointer, bad []openapi.Violation) ([]openapi.Violation, error) {
	// The media type is checked before a byte of the body is read.
	ct := mediaType(fc.Request().Header.ContentType())
	switch {
	case ct == "" && fc.Request().Header.ContentLength() == 0:
		return bad, problem.New(http.StatusBadRequest, "The request body is required.")
	case ct == "" || !b.plan.Accepts(ct):
		return bad, problem.New(http.StatusUnsupportedMediaType, "The request body must be sent with a Content-Type of "+strings.Join(b.plan.MediaTypes, ", ")+".")
	}
	if ct == MediaMultipart {
		return b.bindMultipart(rb, fc, dst, bad)
	}
	body, err := readBody(fc, b.limit)
	if err != nil {
		return bad, err
	}
	if ct == MediaJSON {
		return b.bindJSON(rb.checker, body, dst, bad)
	}
	args := fasthttp.AcquireArgs()
	defer fasthttp.ReleaseArgs(args)
	args.ParseBytes(body)
	for _, p := range b.form {
		if bad, err = rb.bindValues(p, dst, args, bad); err != nil {
			return bad, err
		}
	}
	return bad, nil
}

// bindMultipart binds a multipart body; its files are kept in temporary
// files as they arrive, and removed when the request ends. The body must
// declare its length, which the limit was checked against: a multipart
// body is parsed as it streams in, and one sent in chunks could fill the
// disk.
func (b *bodyBinding) bindMultipart(rb *binding, fc *fiber.Ctx, dst unsafe.Pointer, bad []openapi.Violation) ([]openapi.Violation, error) {
	if fc.Request().IsBodyStream() && fc.Request().Header.ContentLength() < 0 {
		return bad, problem.New(http.StatusLengthRequired, "A multipart body must be sent with a Content-Length.")
	}
	form, err := fc.MultipartForm()
	if err != nil {
		return bad, problem.New(http.StatusBadRequest, "The multipart body could not be parsed.")
	}
	for _, p := range b.form {
		if p.f.File {
			bad = bindFiles(p, form, dst, bad)
			continue
		}
		if bad, err = rb.bindValues(p, dst, multipartValues(form.Value), bad); err != nil {
			return bad, err
		}
	}
	return bad, nil
}

// bindJSON decodes a JSON body strictly: member names match case for
// case, a duplicated member is a 400, and so is a member the schema does
// not have. The document's schema is checked on the decoded value before it
// reaches the Go type, so null, absence and every documented rule are seen
// as the client sent them.
func (b *bodyBinding) bindJSON(checker *openapi.Checker, body []byte, dst unsafe.Pointer, bad []openapi.Violation) ([]openapi.Violation, error) {
	if len(bytes.TrimSpace(body)) == 0 {
		return bad, problem.New(http.StatusBadRequest, "The request body is required.")
	}
	schema := b.schemas[MediaJSON]
	var opts []jsonv2.Options
	if len(body) > scanSize {
		// A large body is first scanned in place, so a value too large
		// for its schema is refused before any of it is copied; then its
		// long strings are checked as slices of it.
		if checker != nil {
			n := len(bad)
			if bad = checker.CheckSizes(schema, body, bad); len(bad) > n {
				return bad, malformedProblem(bad[n:])
			}
		}
		opts = append(opts, rawStrings(body))
	}
	var generic any
	if err := jsonv2.Unmarshal(body, &generic, opts...); err != nil {
		return bad, jsonProblem(err)
	}
	if checker != nil {
		n := len(bad)
		bad = checker.Check(schema, generic, "", bad)
		if err := malformedProblem(bad[n:]); err != nil {
			return bad, err
		}
	}
	if err := jsonv2.Unmarshal(body, reflect.NewAt(b.plan.Type, dst).Interface(), jsonv2.RejectUnknownMembers(true)); err != nil {
		return bad, jsonProblem(err)
	}
	return bad, nil
}

// malformedProblem is the 400 answering violations among which one is
// malformed, or nil when none is: the body then goes on, and the others are
// answered with the rest of the input's.
func malformedProblem(vs []openapi.Violation) error {
	for _, v := range vs {
		if v.Malformed {
			return violationsProblem(vs)
		}
	}
	return nil
}

// rawStringSize is the length over which a string of a large JSON body is
// checked as an openapi.RawString, a slice of the body, instead of a copy.
const rawStringSize = 4 * 1024

// rawStrings has the strings of body over rawStringSize decoded as
// openapi.RawString slices of body: the document's checks then hold no
// second copy of them, and the one decode into the input type makes the
// only copy.
func rawStrings(body []byte) jsonv2.Options {
	start := uintptr(unsafe.Pointer(unsafe.SliceData(body)))
	return jsonv2.WithUnmarshalers(jsonv2.UnmarshalFromFunc(func(dec *jsontext.Decoder, v *any) error {
		if dec.PeekKind() != '"' {
			return jsonv2.SkipFunc
		}
		raw, err := dec.ReadValue()
		if err != nil {
			return err
		}
		if len(raw) <= rawStringSize {
			str, err := jsontext.AppendUnquote(nil, raw)
			*v = string(str)
			return err
		}
		// Unmarshal decodes body in place, so raw is a slice of it; were
		// it ever not, it is copied rather than kept past the next read.
		if p := uintptr(unsafe.Pointer(unsafe.SliceData(raw))); p < start || p+uintptr(len(raw)) > start+uintptr(len(body)) {
			raw = bytes.Clone(raw)
		}
		*v = openapi.RawString(raw)
		return nil
	}))
}

// scanSize is the size over which a JSON body's sizes are checked before
// it is decoded (see openapi.Checker.CheckSizes); smaller bodies cost more
// to scan twice than to decode.
const scanSize = 64 * 1024

// jsonProblem answers a body that is not JSON, or that does not fit the
// Go type, with a 400 naming the member where it can, without echoing
// decoder internals.
func jsonProblem(err error) error {
	var syn *jsontext.SyntacticError
	if errors.As(err, &syn) {
		if errors.Is(err, jsontext.ErrDuplicateName) {
			return fieldProblem(http.StatusBadRequest, "The request body has a member twice.", pointerField(syn.JSONPointer), "appears more than once")
		}
		return problem.New(http.StatusBadRequest, "The request body is not valid JSON.")
	}
	var sem *jsonv2.SemanticError
	if errors.As(err, &sem) && sem.JSONPointer != "" {
		if errors.Is(err, jsonv2.ErrUnknownName) {
			return fieldProblem(http.StatusBadRequest, "The request body does not have the documented shape.", pointerField(sem.JSONPointer), "is not a member of this object")
		}
		return fieldProblem(http.StatusBadRequest, "The request body has a value of the wrong type.", pointerField(sem.JSONPointer), "has the wrong type")
	}
	return problem.New(http.StatusBadRequest, "The request body is not valid JSON.")
}

// pointerField names the member at a JSON pointer as the checker names
// fields: "a.b[2].c".
func pointerField(p jsontext.Pointer) string {
	var b strings.Builder
	for tok := range p.Tokens() {
		if isIndex(tok) {
			b.WriteString("[" + tok + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(tok)
	}
	return b.String()
}

func isIndex(tok string) bool {
	if tok == "" {
		return false
	}
	for _, c := range tok {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// bindFiles sets a file field from the multipart form.
func bindFiles(p *param, form *multipart.Form, dst unsafe.Pointer, bad []openapi.Violation) []openapi.Violation {
	files := form.File[p.f.Name]
	if len(files) == 0 {
		if p.required {
			bad = append(bad, openapi.Violation{Field: p.f.Name, Message: "is required"})
		}
		return bad
	}
	ptr := unsafe.Add(dst, p.f.Offset)
	if p.f.Multi {
		*(*[]*multipart.FileHeader)(ptr) = files
	} else {
		*(**multipart.FileHeader)(ptr) = files[0]
	}
	return bad
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

// mediaType returns the lower-case media type without parameters.
func mediaType(h []byte) string {
	if i := bytes.IndexByte(h, ';'); i >= 0 {
		h = h[:i]
	}
	return strings.ToLower(string(bytes.TrimSpace(h)))
}
