package openapi

import (
	"fmt"
	"reflect"
	"strings"
)

// field is a struct field that becomes a property, after embedded structs
// are flattened the way encoding/json flattens them.
type field struct {
	// name is the property name: the json name, or the form name in a form
	// body.
	name string
	sf   reflect.StructField
	// owner is the struct type declaring the field, for error messages.
	owner reflect.Type
	depth int
}

// nameFunc returns the property name of a struct field, whether the name
// came from a tag, and whether the field is skipped.
type nameFunc func(sf reflect.StructField) (name string, tagged, skip bool)

// jsonName names a field as encoding/json does.
func jsonName(sf reflect.StructField) (string, bool, bool) {
	tag, ok := sf.Tag.Lookup("json")
	if tag == "-" {
		return "", false, true
	}
	name, _, _ := strings.Cut(tag, ",")
	if !ok || name == "" {
		return sf.Name, false, false
	}
	return name, true, false
}

// FormName is the name a field of a form body (URL-encoded or multipart)
// is sent under: the form tag, else the json name, else the Go name; skip
// is true for a field tagged "-". The router binds form bodies by the same
// names the document gives them.
func FormName(sf reflect.StructField) (name string, skip bool) {
	name, _, skip = formName(sf)
	return name, skip
}

// formName is FormName as a nameFunc.
func formName(sf reflect.StructField) (string, bool, bool) {
	tag, ok := sf.Tag.Lookup("form")
	if tag == "-" {
		return "", false, true
	}
	name, _, _ := strings.Cut(tag, ",")
	if !ok || name == "" {
		return jsonName(sf)
	}
	return name, true, false
}

// structFields lists the property fields of struct type t in declaration
// order, with untagged embedded structs flattened into it. A field of the
// outer struct hides a field of the same name in an embedded one; two fields
// of the same name at the same depth are an error rather than silently
// dropped as encoding/json drops them.
func structFields(t reflect.Type, nameOf nameFunc) ([]field, error) {
	var all []field
	if err := collectFields(t, nameOf, 0, map[reflect.Type]bool{}, &all); err != nil {
		return nil, err
	}
	best := map[string]int{}
	for i, f := range all {
		j, seen := best[f.name]
		switch {
		case !seen || f.depth < all[j].depth:
			best[f.name] = i
		case f.depth == all[j].depth:
			return nil, fmt.Errorf("fields %s.%s and %s.%s both have the name %q",
				all[j].owner, all[j].sf.Name, f.owner, f.sf.Name, f.name)
		}
	}
	out := make([]field, 0, len(best))
	for i, f := range all {
		if best[f.name] == i {
			out = append(out, f)
		}
	}
	return out, nil
}

func collectFields(t reflect.Type, nameOf nameFunc, depth int, visiting map[reflect.Type]bool, out *[]field) error {
	if visiting[t] {
		return nil
	}
	visiting[t] = true
	defer delete(visiting, t)
	for i := range t.NumField() {
		sf := t.Field(i)
		name, tagged, skip := nameOf(sf)
		if skip {
			continue
		}
		if sf.Anonymous && !tagged {
			ft := sf.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				if err := collectFields(ft, nameOf, depth+1, visiting, out); err != nil {
					return err
				}
				continue
			}
		}
		if !sf.IsExported() {
			continue
		}
		*out = append(*out, field{name: name, sf: sf, owner: t, depth: depth})
	}
	return nil
}
