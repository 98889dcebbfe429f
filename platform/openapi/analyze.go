package openapi

import (
	"encoding"
	"errors"
	"fmt"
	"mime/multipart"
	"net/textproto"
	"reflect"
	"slices"

	"github.com/asapjs/fiber-template/platform/paging"
)

// Location is where a value of the input comes from.
type Location string

// Locations of input fields.
const (
	InPath  Location = "path"
	InQuery Location = "query"
	// InHeader is a request header, named in its canonical form.
	InHeader Location = "header"
	// InForm is a field of a URL-encoded or multipart body.
	InForm Location = "form"
)

// Media types a body can be declared with.
const (
	MediaJSON      = "application/json"
	MediaForm      = "application/x-www-form-urlencoded"
	MediaMultipart = "multipart/form-data"
	// MediaMergePatch is a JSON merge patch (RFC 7396), the body of a
	// MergePatcher.
	MediaMergePatch = "application/merge-patch+json"
)

// MergePatcher is implemented by a body type that is a JSON merge patch
// (RFC 7396) of another type, the patch's target: a named struct whose
// component schema the patch's schema is made from (see patchSchema).
type MergePatcher interface {
	// MergePatchTarget returns the patch's target type.
	MergePatchTarget() reflect.Type
}

// InputField is one input field bound from a named value.
type InputField struct {
	// Name is the name the client sends the value under, the name the
	// document gives it and the name every error about it uses.
	Name string
	// In is where the value comes from: the path, the query, a header or
	// a form body.
	In Location
	// Struct is the Go field, with its tags.
	Struct reflect.StructField
	// Index leads from the input (or from the body, for form fields) to
	// the field, through embedded structs and pointers to them (which
	// binding allocates: see Input.Allocs).
	Index []int
	// Multi reports a slice bound from repeated values (query and form).
	Multi bool
	// File reports a multipart file field (*multipart.FileHeader, or a
	// slice of them when Multi).
	File bool
	// Paging is paging.PageParam or paging.LimitParam for the fields of an embedded
	// paging query, which the router fills from the paging it parsed.
	Paging string
	// Schema is the schema the document gives the field, which a binder
	// checks the value by. It is set when AddRoute documents the field
	// (nil for a file).
	Schema *Schema
	// Required reports whether the document requires the field, which a
	// binder checks too; set with Schema.
	Required bool
}

// InputBody is the field named Body, decoded from the request body.
type InputBody struct {
	// Struct is the Go field Body, with its tags.
	Struct reflect.StructField
	// Type is the body's type, pointers removed.
	Type reflect.Type
	// MediaTypes are the accepted media types, MediaJSON when none was
	// declared.
	MediaTypes []string
	// Form lists the fields of a form body (when MediaTypes has a form
	// type), relative to the body.
	Form []*InputField
	// Patch is the target type of a merge patch body (a MergePatcher),
	// nil for other bodies.
	Patch reflect.Type
	// Target is the schema of the patch's target, which a patched value
	// is checked by; set when AddRoute documents the body.
	Target *Schema
}

// Accepts reports whether the body may come as media type mt.
func (b *InputBody) Accepts(mt string) bool { return slices.Contains(b.MediaTypes, mt) }

// Input is the analysis of one route's input type, its fields carrying
// their documented schemas once AddRoute has documented them.
type Input struct {
	// Path lists the path parameters in the order of the path.
	Path []*InputField
	// Query lists the query parameters in field order.
	Query []*InputField
	// Header lists the request headers in field order.
	Header []*InputField
	// Paging lists the page and limit fields of embedded paging queries.
	Paging []*InputField
	// Sort is the Sort field of an embedded paging.SortQuery, nil when the
	// list is not sortable.
	Sort *InputField
	// SortKeys are the keys the SortQuery's type names.
	SortKeys []string
	// Body is nil when the input has no Body field.
	Body *InputBody
	// Allocs are the index paths of embedded struct pointers, outermost
	// first: binding allocates each, so a handler never meets a nil one.
	Allocs [][]int
}

// Paged reports whether the route reads page and limit: whether its input
// has paging fields, as by embedding paging.Query. Other routes ignore
// them, and their handlers get the default paging.
func (in *Input) Paged() bool { return len(in.Paging) > 0 }

// Declared reports whether the input binds anything from the request.
func (in *Input) Declared() bool {
	return len(in.Path)+len(in.Query)+len(in.Header)+len(in.Paging) > 0 || in.Sort != nil || in.Body != nil
}

var (
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
	filePointerType     = reflect.TypeFor[*multipart.FileHeader]()
	sortKeysType        = reflect.TypeFor[[]paging.SortKey]()
	sortableType        = reflect.TypeFor[paging.Sortable]()
	fileHeadersType     = reflect.TypeFor[[]*multipart.FileHeader]()
)

// analyzeInput plans the input type t (a struct, or struct{} for none) of a
// route whose path has the parameters params (from ParsePath) and whose
// body may come as mediaTypes (none means MediaJSON):
//
//   - a field tagged path:"id" is the path parameter id, and every
//     parameter of the path needs one;
//   - a field tagged query:"q" is a query parameter; a slice is bound
//     from repeated keys;
//   - a field tagged header:"X-Name" is a request header (one value;
//     Accept, Content-Type and Authorization are not parameters);
//   - a field tagged paging: with paging.PageParam or paging.LimitParam (as in paging.Query)
//     gets the paging the router parsed;
//   - the Sort field of an embedded paging.SortQuery is the sort
//     parameter of the keys its type names;
//   - the field named Body is the request body;
//   - embedded structs without tags, and pointers to them, are flattened.
//
// Anything else is not bound. Types a value cannot be parsed into, a
// parameter without its field, and two fields of one name are errors.
func analyzeInput(t reflect.Type, params []string, mediaTypes []string) (*Input, error) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("input type %s is not a struct", t)
	}
	a := &analysis{in: &Input{}, names: map[Location]map[string]string{}}
	if err := flatten(t, a.embed, a.field); err != nil {
		return nil, fmt.Errorf("input type %s: %w", t, err)
	}
	in := a.in
	if err := orderPath(in, params); err != nil {
		return nil, fmt.Errorf("input type %s: %w", t, err)
	}
	if err := checkMediaTypes(mediaTypes); err != nil {
		return nil, err
	}
	if in.Body == nil {
		if len(mediaTypes) > 0 {
			return nil, errors.New("a body media type is declared but the input has no Body field")
		}
		return in, nil
	}
	if err := a.body(mediaTypes); err != nil {
		return nil, fmt.Errorf("input type %s: %w", t, err)
	}
	return in, nil
}

// analysis is the state of one analyzeInput.
type analysis struct {
	in *Input
	// names maps each location's names to the Go field that has it.
	names map[Location]map[string]string
}

// embed reports whether the embedded field sf at index is flattened into
// the input: untagged, it is, and binding allocates it when it is a pointer.
func (a *analysis) embed(sf reflect.StructField, index []int) (bool, error) {
	_, isPath := tagName(sf, "path")
	_, isQuery := tagName(sf, "query")
	_, isHeader := tagName(sf, "header")
	if isPath || isQuery || isHeader || sf.Tag.Get("paging") != "" {
		return false, nil
	}
	if sf.Type.Kind() == reflect.Pointer {
		if !sf.IsExported() {
			return false, fmt.Errorf("embedded %s is an unexported pointer, which binding cannot allocate", sf.Type)
		}
		a.in.Allocs = append(a.in.Allocs, index)
	}
	return true, nil
}

// field plans one field of the input (embedded structs flattened) at idx.
func (a *analysis) field(sf reflect.StructField, idx []int, _ int, owner reflect.Type) error {
	pathName, isPath := tagName(sf, "path")
	queryName, isQuery := tagName(sf, "query")
	headerName, isHeader := tagName(sf, "header")
	pagingName := sf.Tag.Get("paging")
	if !sf.IsExported() {
		if isPath || isQuery || isHeader {
			return fmt.Errorf("field %s is tagged but not exported", sf.Name)
		}
		return nil
	}
	f := &InputField{Struct: sf, Index: idx}
	switch {
	case isPath && isQuery, isPath && isHeader, isQuery && isHeader:
		return fmt.Errorf("field %s has more than one of the path, query and header tags", sf.Name)
	case pagingName == paging.SortParam:
		return a.sort(f, owner)
	case pagingName != "":
		if pagingName != paging.PageParam && pagingName != paging.LimitParam {
			return fmt.Errorf("field %s: paging tag %q, want page or limit", sf.Name, pagingName)
		}
		if sf.Type.Kind() != reflect.Int {
			return fmt.Errorf("field %s: a paging field must be an int", sf.Name)
		}
		f.Name, f.In, f.Paging = queryName, InQuery, pagingName
		if f.Name == "" {
			f.Name = pagingName
		}
		if err := a.claim(f); err != nil {
			return err
		}
		a.in.Paging = append(a.in.Paging, f)
	case isPath:
		f.Name, f.In = pathName, InPath
		if err := a.value(f, false); err != nil {
			return err
		}
		a.in.Path = append(a.in.Path, f)
	case isQuery:
		f.Name, f.In = queryName, InQuery
		if err := a.value(f, true); err != nil {
			return err
		}
		a.in.Query = append(a.in.Query, f)
	case isHeader:
		return a.header(f, headerName)
	case sf.Name == "Body" && len(idx) == 1:
		if sf.Type.Kind() == reflect.Pointer {
			return errors.New("the Body field must not be a pointer: the body is required")
		}
		a.in.Body = &InputBody{Struct: sf, Type: sf.Type}
		if mp, ok := reflect.Zero(sf.Type).Interface().(MergePatcher); ok {
			t := mp.MergePatchTarget()
			if t.Kind() != reflect.Struct || t.Name() == "" {
				return fmt.Errorf("the Body field is a merge patch of %s, which is not a named struct", t)
			}
			a.in.Body.Patch = t
		}
	}
	return nil
}

// sort plans f, the Sort field of a paging.SortQuery embedded as owner,
// as the sort query parameter of the keys owner names.
func (a *analysis) sort(f *InputField, owner reflect.Type) error {
	if f.Struct.Type != sortKeysType || !owner.Implements(sortableType) {
		return fmt.Errorf("field %s: a sort field is the Sort of an embedded paging.SortQuery", f.Struct.Name)
	}
	f.Name, f.In = paging.SortParam, InQuery
	if err := a.claim(f); err != nil {
		return err
	}
	a.in.Sort = f
	a.in.SortKeys = reflect.Zero(owner).Interface().(paging.Sortable).SortKeys()
	return nil
}

// unparameterHeaders are the headers OpenAPI does not describe as
// parameters: the document says them elsewhere (the body's media types,
// the security schemes, the responses' content).
var unparameterHeaders = []string{"Accept", "Authorization", "Content-Type"}

// header plans f as the request header name, in its canonical form: one
// value of a type parsed from text.
func (a *analysis) header(f *InputField, name string) error {
	f.Name, f.In = textproto.CanonicalMIMEHeaderKey(name), InHeader
	if slices.Contains(unparameterHeaders, f.Name) {
		return fmt.Errorf("field %s: the header %s is not a parameter OpenAPI can describe", f.Struct.Name, f.Name)
	}
	if err := a.value(f, false); err != nil {
		return err
	}
	a.in.Header = append(a.in.Header, f)
	return nil
}

// value checks that f can be parsed from text (or repeated text when
// multi is allowed and f is a slice) and claims its name.
func (a *analysis) value(f *InputField, multiAllowed bool) error {
	t := f.Struct.Type
	if multiAllowed && t.Kind() == reflect.Slice && t.Elem().Kind() != reflect.Uint8 {
		f.Multi = true
		t = t.Elem()
	}
	if !parsable(t) {
		return fmt.Errorf("field %s (%s %q): type %s cannot be parsed from text", f.Struct.Name, f.In, f.Name, f.Struct.Type)
	}
	return a.claim(f)
}

// claim records f's name in its location, failing on a second field with
// the same name.
func (a *analysis) claim(f *InputField) error {
	names := a.names[f.In]
	if names == nil {
		names = map[string]string{}
		a.names[f.In] = names
	}
	if other, ok := names[f.Name]; ok {
		return fmt.Errorf("fields %s and %s are both the %s value %q", other, f.Struct.Name, f.In, f.Name)
	}
	names[f.Name] = f.Struct.Name
	return nil
}

// parsable reports whether a value of type t is parsed from one text value:
// strings, booleans, numbers, text unmarshalers, and pointers to them.
func parsable(t reflect.Type) bool {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(textUnmarshalerType) {
		return true
	}
	switch t.Kind() {
	case reflect.String, reflect.Bool,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

// orderPath puts the path fields in the order of params and checks that
// each parameter has exactly one field.
func orderPath(in *Input, params []string) error {
	byName := map[string]*InputField{}
	for _, f := range in.Path {
		byName[f.Name] = f
	}
	ordered := make([]*InputField, 0, len(params))
	for _, name := range params {
		f, ok := byName[name]
		if !ok {
			return fmt.Errorf("path parameter :%s has no field tagged path:%q", name, name)
		}
		ordered = append(ordered, f)
		delete(byName, name)
	}
	for name, f := range byName {
		return fmt.Errorf("field %s is the path parameter %q, but the path has no :%s", f.Struct.Name, name, name)
	}
	in.Path = ordered
	return nil
}

// body plans the body's media types and, for forms, its fields.
func (a *analysis) body(mediaTypes []string) error {
	b := a.in.Body
	switch {
	case b.Patch != nil && len(mediaTypes) == 0:
		mediaTypes = []string{MediaMergePatch}
	case b.Patch != nil && !slices.Equal(mediaTypes, []string{MediaMergePatch}):
		return fmt.Errorf("body type %s is a merge patch, sent only as %s", b.Type, MediaMergePatch)
	case b.Patch == nil && slices.Contains(mediaTypes, MediaMergePatch):
		return fmt.Errorf("body type %s is not a merge patch (router.MergePatch) but %s is declared", b.Type, MediaMergePatch)
	case len(mediaTypes) == 0:
		mediaTypes = []string{MediaJSON}
	}
	formish := slices.Contains(mediaTypes, MediaForm) || slices.Contains(mediaTypes, MediaMultipart)
	b.MediaTypes = slices.Clone(mediaTypes)
	if !formish {
		return nil
	}
	if b.Type.Kind() != reflect.Struct {
		return fmt.Errorf("body type %s must be a struct to be bound from a form", b.Type)
	}
	for i := range b.Type.NumField() {
		sf := b.Type.Field(i)
		name, _, skip := formName(sf)
		if skip || !sf.IsExported() {
			continue
		}
		f := &InputField{Name: name, In: InForm, Struct: sf, Index: []int{i}}
		switch sf.Type {
		case filePointerType, fileHeadersType:
			if !slices.Contains(mediaTypes, MediaMultipart) {
				return fmt.Errorf("body field %s is a file, which only %s carries", sf.Name, MediaMultipart)
			}
			f.File, f.Multi = true, sf.Type == fileHeadersType
			if err := a.claim(f); err != nil {
				return err
			}
		default:
			if err := a.value(f, true); err != nil {
				return fmt.Errorf("body: %w", err)
			}
		}
		b.Form = append(b.Form, f)
	}
	return nil
}

// checkMediaTypes checks that each body media type is one a body can be
// bound from, and listed once.
func checkMediaTypes(mediaTypes []string) error {
	for i, mt := range mediaTypes {
		switch mt {
		case MediaJSON, MediaForm, MediaMultipart, MediaMergePatch:
		default:
			return fmt.Errorf("body media type %q is not one of %s, %s, %s, %s", mt, MediaJSON, MediaForm, MediaMultipart, MediaMergePatch)
		}
		if slices.Contains(mediaTypes[:i], mt) {
			return fmt.Errorf("body media type %q is listed twice", mt)
		}
	}
	return nil
}
