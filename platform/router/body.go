package router

import (
	"bytes"
	"errors"
	"mime/multipart"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

	"github.com/asapjs/fiber-template/platform/openapi"
	"github.com/asapjs/fiber-template/platform/problem"
)

// bodyBinding decodes the request body into the field named Body and
// checks it against the documented schema of its media type.
type bodyBinding struct {
	input *openapi.InputBody
	// form binds the fields of a form body.
	form []*param
	// schemas are the documented body schemas by media type.
	schemas map[string]*openapi.Schema
	// limit is the largest body read, in bytes: the documented limit of
	// the route once the document is built.
	limit int
	// gzip accepts a body sent with Content-Encoding: gzip.
	gzip bool
}

func newBodyBinding(p *openapi.InputBody, limit int, gzip bool) (*bodyBinding, error) {
	b := &bodyBinding{input: p, limit: limit, gzip: gzip}
	var err error
	if b.form, err = newParams(p.Form); err != nil {
		return nil, err
	}
	return b, nil
}

// document takes the body schemas and the limit from the documented
// request body rb. The documented limit is never above the server's, which
// the binding started with, nor 0: it is the smallest of the schema's bound,
// the route's declared limit and the server's (openapi.RequestBody.Limit).
func (b *bodyBinding) document(rb *openapi.RequestBody) {
	b.limit = int(rb.Limit)
	b.schemas = map[string]*openapi.Schema{}
	for mt, content := range rb.Content {
		b.schemas[mt] = content.Schema
	}
}

// bind decodes the body into dst, appending the violations of its
// documented rules to bad. Its media type, charset, encoding and declared
// length are checked before a byte of it is read.
func (b *bodyBinding) bind(rb *binding, fc *fiber.Ctx, dst reflect.Value, bad []openapi.Violation) ([]openapi.Violation, error) {
	h := &fc.Request().Header
	ct, params := splitMediaType(h.ContentType())
	switch {
	case ct == "" && h.ContentLength() == 0:
		return bad, problem.New(http.StatusBadRequest, "The request body is required.")
	case ct == "" || !b.input.Accepts(ct):
		if b.input.Patch != nil {
			// RFC 5789, section 2.2: the patch formats the resource takes.
			fc.Set("Accept-Patch", MediaMergePatch)
		}
		return bad, problem.New(http.StatusUnsupportedMediaType, "The request body must be sent with a Content-Type of "+strings.Join(b.input.MediaTypes, ", ")+".")
	case !utf8Charset(params):
		return bad, problem.New(http.StatusUnsupportedMediaType, "The request body must be UTF-8: send charset=utf-8 or no charset.")
	}
	gzipped, err := b.encoding(h.ContentEncoding(), ct)
	if err != nil {
		// RFC 9110, section 15.5.16: the codings the route would take.
		fc.Set(fiber.HeaderAcceptEncoding, b.acceptEncoding(ct))
		return bad, err
	}
	if h.ContentLength() > b.limit && !gzipped {
		return bad, tooLarge(b.limit)
	}
	if ct == MediaMultipart {
		return b.bindMultipart(rb, fc, dst, bad)
	}
	body, err := readBody(fc, b.limit, gzipped)
	if err != nil {
		return bad, err
	}
	if ct == MediaJSON || ct == MediaMergePatch {
		return b.bindJSON(rb.checker, ct, body, dst, bad)
	}
	args := fasthttp.AcquireArgs()
	defer fasthttp.ReleaseArgs(args)
	args.ParseBytes(body)
	for _, p := range b.form {
		if !p.f.Multi && len(args.PeekMulti(p.f.Name)) > 1 {
			return bad, fieldProblem("The request body has a field twice.", p.f.Name, "appears more than once")
		}
		if bad, err = rb.bindValues(p, dst, args, bad); err != nil {
			return bad, err
		}
	}
	return bad, nil
}

// encoding checks the Content-Encoding of a body of media type ct: none or
// identity, or gzip once where the route accepts it (gzipped).
func (b *bodyBinding) encoding(header []byte, ct string) (gzipped bool, err error) {
	if identity(header) {
		return false, nil
	}
	enc := strings.ToLower(strings.TrimSpace(string(header)))
	switch {
	case enc == "gzip" && b.gzip && ct != MediaMultipart:
		return true, nil
	case b.gzip && ct != MediaMultipart:
		return false, problem.New(http.StatusUnsupportedMediaType, "The request body may only be sent with a Content-Encoding of gzip, once, or none.")
	}
	return false, problem.New(http.StatusUnsupportedMediaType, "The request body must not be sent with a Content-Encoding.")
}

// identity reports whether a Content-Encoding header leaves the body as it
// is: none, or identity.
func identity(header []byte) bool {
	enc := bytes.TrimSpace(header)
	return len(enc) == 0 || bytes.EqualFold(enc, []byte("identity"))
}

// acceptEncoding is the Accept-Encoding of a 415 for a body of type ct
// sent with a Content-Encoding the route does not take.
func (b *bodyBinding) acceptEncoding(ct string) string {
	if b.gzip && ct != MediaMultipart {
		return "gzip, identity"
	}
	return "identity"
}

// tooLarge is the 413 of a body over limit bytes.
func tooLarge(limit int) error {
	return problem.New(http.StatusRequestEntityTooLarge, "The request body is larger than this route accepts: at most "+strconv.Itoa(limit)+" bytes.")
}

// bindMultipart binds a multipart body; its files are kept in temporary
// files as they arrive, and removed when the request ends. The body must
// declare its length, which the limit was checked against: a multipart
// body is parsed as it streams in, and one sent in chunks could fill the
// disk.
func (b *bodyBinding) bindMultipart(rb *binding, fc *fiber.Ctx, dst reflect.Value, bad []openapi.Violation) ([]openapi.Violation, error) {
	if fc.Request().Header.ContentLength() < 0 {
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
// not have. The body is checked against the document's schema as it is
// read (see openapi.Checker.CheckJSON), so null, absence and every
// documented rule are seen as the client sent them, and a value of the
// wrong shape is refused without being decoded; only a body that passed
// is decoded into the Go type. A merge patch (media type MediaMergePatch)
// is checked against the patch's schema and kept as its members, to be
// applied by the handler (see MergePatch.Apply).
func (b *bodyBinding) bindJSON(checker *openapi.Checker, ct string, body []byte, dst reflect.Value, bad []openapi.Violation) ([]openapi.Violation, error) {
	if len(bytes.TrimSpace(body)) == 0 {
		return bad, problem.New(http.StatusBadRequest, "The request body is required.")
	}
	if checker != nil {
		n := len(bad)
		var err error
		if bad, err = checker.CheckJSON(b.schemas[ct], body, bad); err != nil {
			return bad, jsonProblem(err)
		}
		if err := malformedProblem(bad[n:]); err != nil {
			return bad, err
		}
		if len(bad) > n {
			return bad, nil // a 422 whatever the Go value would be
		}
	}
	if ct == MediaMergePatch {
		return bad, setPatch(dst, body, patchChecker{checker: checker, target: b.input.Target})
	}
	if err := jsonv2.Unmarshal(body, dst.Addr().Interface(), jsonv2.RejectUnknownMembers(true)); err != nil {
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

// jsonProblem answers a body that is not JSON, or that does not fit the
// Go type, with a 400 naming the member where it can, without echoing
// decoder internals.
func jsonProblem(err error) error {
	var syn *jsontext.SyntacticError
	if errors.As(err, &syn) {
		if errors.Is(err, jsontext.ErrDuplicateName) {
			return fieldProblem("The request body has a member twice.", pointerField(syn.JSONPointer), "appears more than once")
		}
		return problem.New(http.StatusBadRequest, "The request body is not valid JSON.")
	}
	var sem *jsonv2.SemanticError
	if errors.As(err, &sem) && sem.JSONPointer != "" {
		if errors.Is(err, jsonv2.ErrUnknownName) {
			return fieldProblem("The request body does not have the documented shape.", pointerField(sem.JSONPointer), "is not a member of this object")
		}
		return fieldProblem("The request body has a value of the wrong type.", pointerField(sem.JSONPointer), "has the wrong type")
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
func bindFiles(p *param, form *multipart.Form, dst reflect.Value, bad []openapi.Violation) []openapi.Violation {
	files := form.File[p.f.Name]
	if len(files) == 0 {
		if p.required {
			bad = append(bad, openapi.Violation{Field: p.f.Name, Message: "is required"})
		}
		return bad
	}
	if p.f.Multi {
		dst.FieldByIndex(p.f.Index).Set(reflect.ValueOf(files))
	} else {
		dst.FieldByIndex(p.f.Index).Set(reflect.ValueOf(files[0]))
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

// splitMediaType returns the lower-case media type of a Content-Type
// header and its parameters.
func splitMediaType(h []byte) (mt string, params []byte) {
	if i := bytes.IndexByte(h, ';'); i >= 0 {
		h, params = h[:i], h[i+1:]
	}
	return strings.ToLower(string(bytes.TrimSpace(h))), params
}

// utf8Charset reports whether the parameters of a media type name no
// charset, or UTF-8.
func utf8Charset(params []byte) bool {
	for len(params) > 0 {
		var p []byte
		p, params, _ = bytes.Cut(params, []byte(";"))
		name, value, _ := bytes.Cut(p, []byte("="))
		if !bytes.EqualFold(bytes.TrimSpace(name), []byte("charset")) {
			continue
		}
		value = bytes.Trim(bytes.TrimSpace(value), `"`)
		if !bytes.EqualFold(value, []byte("utf-8")) && !bytes.EqualFold(value, []byte("utf8")) {
			return false
		}
	}
	return true
}
