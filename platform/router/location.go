package router

import (
	"fmt"
	"net/url"
	"reflect"
	"strconv"
	"strings"

	"github.com/asapjs/fiber-template/platform/openapi"
)

// Location sets the Location header of a route's 201 answer to the
// resource it created: the route's path followed by template, written as
// route paths are, whose :name segments are filled from the answer's
// members of those JSON names (a string or an integer), so that POST
// /users with "/:id" answers Location: /api/users/42. The document
// declares the header. A route that does not answer 201, or a name that is
// not such a member, fails at start-up.
func Location(template string) Option { return func(op *Operation) { op.Location = template } }

// location is the Location of a route's answers, made at start-up.
type location struct {
	// path is the route's path and the template, as the document writes
	// paths ({name}).
	path string
	// parts are literal text, or with field set, a member of the answer.
	parts []locationPart
}

// locationPart is literal text or the index of an answer's field.
type locationPart struct {
	text  string
	field []int
}

// newLocation reads template, a path as ParsePath reads route paths,
// against the output type out (a struct) under the
// route's full path.
func newLocation(fullPath, template string, out reflect.Type) (*location, error) {
	if strings.ContainsAny(template, "{}") {
		return nil, fmt.Errorf("Location %q: write a parameter as route paths do, /:name", template)
	}
	tmpl, params, err := openapi.ParsePath(template)
	if err != nil {
		return nil, fmt.Errorf("Location %q: %w", template, err)
	}
	// out is the Out of a handler that answers *Out.
	if out == nil || out.Kind() != reflect.Struct {
		return nil, fmt.Errorf("Location %q needs a struct answer to fill it from", template)
	}
	base := strings.TrimSuffix(fullPath, "/")
	l := &location{path: base + tmpl, parts: []locationPart{{text: base}}}
	rest := tmpl
	for _, name := range params {
		field, err := memberField(out, name)
		if err != nil {
			return nil, fmt.Errorf("Location %q: %w", template, err)
		}
		before, after, _ := strings.Cut(rest, "{"+name+"}")
		l.parts = append(l.parts, locationPart{text: before}, locationPart{field: field})
		rest = after
	}
	l.parts = append(l.parts, locationPart{text: rest})
	return l, nil
}

// memberField finds the member name of the answers of struct type t, as
// the document names it, and checks that it is a string or an integer.
func memberField(t reflect.Type, name string) ([]int, error) {
	sf, index, err := openapi.Member(t, name)
	if err != nil {
		return nil, err
	}
	switch sf.Type.Kind() {
	case reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return index, nil
	}
	return nil, fmt.Errorf("member %s of %s is a %s, not a string or an integer", name, t, sf.Type)
}

// of is the Location of the answer out; ok is false when a member it
// names sits in an embedded struct the answer left nil.
func (l *location) of(out any) (loc string, ok bool) {
	v := reflect.ValueOf(out)
	for v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	var b strings.Builder
	for _, p := range l.parts {
		if p.field == nil {
			b.WriteString(p.text)
			continue
		}
		f, err := v.FieldByIndexErr(p.field)
		if err != nil {
			return "", false
		}
		switch f.Kind() {
		case reflect.String:
			b.WriteString(url.PathEscape(f.String()))
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			b.WriteString(strconv.FormatUint(f.Uint(), 10))
		default:
			b.WriteString(strconv.FormatInt(f.Int(), 10))
		}
	}
	return b.String(), true
}
